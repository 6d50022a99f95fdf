package io.portshare.rpc;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;

/** A plain blocking socket speaking the wire format by hand, as a client in any language would. */
final class RawConnection implements AutoCloseable {

  final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  RawConnection(int port) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  static byte[] frame(byte[] payload) {
    return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
  }

  static byte[] payload(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 131 + seed * 7 + 1);
    }
    return b;
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads one frame's payload. */
  byte[] readFrame() throws IOException {
    int n = in.readInt();
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /** True when the server closed the connection (end of stream or reset) before sending anything more. */
  boolean closedByServer() throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketException e) {
      return true;
    } catch (EOFException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
