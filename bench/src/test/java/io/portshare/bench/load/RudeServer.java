package io.portshare.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A server that reads one request and then, instead of answering, closes: politely (FIN: the
 * generator must count "closed") or with a reset (RST: it must count "reset"). Plain blocking
 * sockets, one thread, port 0.
 */
final class RudeServer implements AutoCloseable {

  private final ServerSocket listener;
  private final Thread thread;

  RudeServer(boolean reset) throws IOException {
    listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    thread = new Thread(() -> {
      while (!listener.isClosed()) {
        try (Socket s = listener.accept()) {
          InputStream in = s.getInputStream();
          byte[] header = in.readNBytes(4);
          if (header.length == 4) {
            in.readNBytes(((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8) | (header[3] & 0xff));
          }
          if (reset) {
            s.setSoLinger(true, 0);
          }
        } catch (IOException e) {
          // the listener closed, or the client went first: next one
        }
      }
    }, "rude-server");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  @Override
  public void close() throws Exception {
    listener.close();
    thread.join(5000);
  }
}
