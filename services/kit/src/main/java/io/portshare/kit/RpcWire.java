package io.portshare.kit;

import io.portshare.rpc.codec.FrameEncoder;
import io.portshare.rpc.codec.FrameReader;
import io.portshare.rpc.codec.RpcFrame;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/**
 * The RPC protocol over a plain blocking socket, as a client in any language would speak it, the
 * frames written and read by the codec. Also the one payload pattern every harness sends.
 */
public final class RpcWire implements AutoCloseable {

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  /** A connection to {@code port} on loopback. */
  public RpcWire(int port) throws IOException {
    this(null, port, false);
  }

  /**
   * @param source the local address to connect from (one of 127.0.0.x spreads the client ports), or null
   * @param resetOnClose close with RST: one connection per transaction must not leave a TIME_WAIT port behind
   */
  public RpcWire(InetAddress source, int port, boolean resetOnClose) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    if (resetOnClose) {
      socket.setSoLinger(true, 0);
    }
    if (source != null) {
      socket.bind(new InetSocketAddress(source, 0));
    }
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** {@code size} bytes that differ from one position to the next and from one seed to the next. */
  public static byte[] payload(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 131 + seed * 7 + 1);
    }
    return b;
  }

  /** The frame of a payload: its length, then the payload. */
  public static byte[] frame(byte[] payload) {
    return FrameEncoder.frame(payload);
  }

  /** The frame of {@link #payload(int, int)}. */
  public static byte[] frame(int size, int seed) {
    return frame(payload(size, seed));
  }

  public Socket socket() {
    return socket;
  }

  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads one frame, of any length a frame can have; returns its payload. */
  public byte[] readFrame() throws IOException {
    return FrameReader.readPayload(in, RpcFrame.LARGEST_MAX_PAYLOAD);
  }

  /** Reads as many bytes as {@code frame} has and checks they are the same: its echo. */
  public void expect(byte[] frame) throws IOException {
    byte[] answer = new byte[frame.length];
    in.readFully(answer);
    if (!Arrays.equals(answer, frame)) {
      throw new IOException("echo differs from the request");
    }
  }

  /** Sends one frame and checks its echo. */
  public void transact(byte[] frame) throws IOException {
    write(frame);
    expect(frame);
  }

  /**
   * True when the peer closed the connection, in order (end of stream), before sending anything
   * more; false when it is still open at the read timeout. A reset is no close: it throws, so that a
   * test of a graceful close fails on a reset, which loses what was in flight.
   */
  public boolean closedByPeer() throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      throw new SocketException("the peer reset the connection instead of closing it: " + e.getMessage());
    }
  }

  /** As {@link #closedByPeer()}, waiting at most {@code timeoutMillis}. */
  public boolean closedByPeer(int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    return closedByPeer();
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
