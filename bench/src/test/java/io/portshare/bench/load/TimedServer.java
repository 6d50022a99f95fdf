package io.portshare.bench.load;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server on real loopback sockets whose timing is known, speaking the RPC echo protocol or, with
 * {@code httpBody >= 0}, HTTP/1.1 (every request answered 200 with a body of that many bytes, the
 * connection closed after it when the request said {@code Connection: close}): every reply goes
 * out {@code delayMillis} after its request was read, and once, when the {@code stallAfter}-th frame
 * arrives, the whole server stalls for {@code stallMillis}: no reply leaves before the stall ends.
 * One blocking thread per connection, so a connection's replies keep their order and a sleep holds
 * exactly that connection, as a busy server thread would.
 */
final class TimedServer implements AutoCloseable {

  private final ServerSocket listener;
  private final long delayNanos;
  private final long stallAfter;
  private final long stallNanos;
  private final int httpBody;
  private final AtomicLong frames = new AtomicLong();
  private final AtomicLong connections = new AtomicLong();
  /** System.nanoTime() when the stall ends; 0 before it began. */
  private volatile long stallUntil;
  private volatile boolean closed;

  TimedServer(long delayMillis, long stallAfter, long stallMillis, int httpBody) throws IOException {
    this.httpBody = httpBody;
    this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
    this.stallAfter = stallAfter;
    this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
    this.listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "timed-echo-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Every reply {@code delayMillis} after its request, no stall (RPC echo). */
  static TimedServer delaying(long delayMillis) throws IOException {
    return new TimedServer(delayMillis, Long.MAX_VALUE, 0, -1);
  }

  /** Replies at once, but stalls {@code stallMillis} when request number {@code after} arrives (RPC echo). */
  static TimedServer stallingOnce(long after, long stallMillis) throws IOException {
    return new TimedServer(0, after, stallMillis, -1);
  }

  /** As {@link #stallingOnce}, answering HTTP with a body of {@code body} bytes. */
  static TimedServer httpStallingOnce(long after, long stallMillis, int body) throws IOException {
    return new TimedServer(0, after, stallMillis, body);
  }

  int port() {
    return listener.getLocalPort();
  }

  long connections() {
    return connections.get();
  }

  /** When the stall began (System.nanoTime()), or 0 if it did not. */
  long stallStart() {
    long until = stallUntil;
    return until == 0 ? 0 : until - stallNanos;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket s = listener.accept();
        connections.incrementAndGet();
        Thread t = new Thread(() -> serve(s), "timed-echo");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      OutputStream out = s.getOutputStream();
      byte[] payload = new byte[0];
      StringBuilder head = new StringBuilder();
      byte[] answer = httpBody < 0 ? null
          : ("HTTP/1.1 200 OK\r\nContent-Length: " + httpBody + "\r\n\r\n" + "x".repeat(httpBody))
              .getBytes(StandardCharsets.US_ASCII);
      while (!closed) {
        int length = 0;
        boolean close = false;
        if (httpBody < 0) {
          length = in.readInt();
          if (payload.length != 4 + length) {
            payload = new byte[4 + length];
          }
          in.readFully(payload, 4, length);
        } else {
          head.setLength(0);
          while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
              return;
            }
            head.append((char) b);
          }
          close = head.toString().contains("Connection: close");
        }
        long read = System.nanoTime();
        if (frames.incrementAndGet() == stallAfter) {
          stallUntil = read + stallNanos;
        }
        long at = Math.max(read + delayNanos, stallUntil);
        sleepUntil(at);
        if (answer != null) {
          out.write(answer);
        } else {
          ByteBuffer.wrap(payload).putInt(0, length);
          out.write(payload); // one write: a reply is one segment, as a real server sends it
        }
        out.flush();
        if (close) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client closed (or reset) the connection: this thread is done
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
  }
}
