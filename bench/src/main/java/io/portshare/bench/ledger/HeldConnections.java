package io.portshare.bench.ledger;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Idle connections held open to a server, for its resident memory per connection: connected, nothing
 * sent, spread over several 127.0.0.x destinations; closed with a reset, so nothing stays in TIME_WAIT.
 */
final class HeldConnections implements AutoCloseable {

  private final List<SocketChannel> channels = new ArrayList<>();

  static HeldConnections open(int count, int port, int firstOctet, int addresses) throws IOException {
    HeldConnections held = new HeldConnections();
    try {
      for (int i = 0; i < count; i++) {
        SocketChannel ch = SocketChannel.open();
        held.channels.add(ch);
        ch.setOption(StandardSocketOptions.SO_LINGER, 0);
        ch.connect(new InetSocketAddress("127.0.0." + (firstOctet + i % addresses), port));
      }
      return held;
    } catch (IOException | RuntimeException e) {
      held.close();
      throw e;
    }
  }

  int size() {
    return channels.size();
  }

  @Override
  public void close() {
    for (SocketChannel ch : channels) {
      try {
        ch.close();
      } catch (IOException e) {
        // a reset socket: nothing to do
      }
    }
    channels.clear();
  }
}
