package io.portshare.soak;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** The RPC wire format over a plain blocking socket: what a client in any language does. */
final class RpcWire implements AutoCloseable {

  final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  RpcWire(InetAddress source, int port, boolean resetOnClose) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    if (resetOnClose) {
      // RST instead of FIN: one connection per transaction must not leave a TIME_WAIT port behind.
      socket.setSoLinger(true, 0);
    }
    if (source != null) {
      socket.bind(new InetSocketAddress(source, 0));
    }
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  static byte[] frame(int size, int seed) {
    ByteBuffer b = ByteBuffer.allocate(4 + size).putInt(size);
    for (int i = 0; i < size; i++) {
      b.put((byte) (i * 131 + seed));
    }
    return b.array();
  }

  /** Sends one frame and checks that the echo is the same bytes. */
  void transact(byte[] frame) throws IOException {
    out.write(frame);
    out.flush();
    expect(frame);
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  void expect(byte[] frame) throws IOException {
    byte[] answer = new byte[frame.length];
    in.readFully(answer);
    if (!Arrays.equals(answer, frame)) {
      throw new IOException("echo differs from the request");
    }
  }

  /** True when the peer closed (end of stream or reset) within the socket timeout. */
  boolean closedByPeer(int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    try {
      return in.read() < 0;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (java.net.SocketException e) {
      return true;
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing is all we wanted.
    }
  }
}
