package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.runtime.config.ExitCodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Seed 002's receiver, a process of its own so that it can be pinned to a CPU: over one keep-alive
 * connection it asks for the files in turn and reads each answer 64 KB at a time, throwing the bytes
 * away. It warms for a while, prints {@code measuring}, counts bytes for the measured time, prints
 * {@code done}, then one line: {@code result bytes=N seconds=S files=F cpu=C errors=E} (its own CPU
 * seconds over the measured window).
 *
 * <p>{@code java -cp portshare-bench.jar io.portshare.bench.seeds.Receiver HOST PORT WARMUP_MS MEASURE_MS FILE...}
 */
public final class Receiver {

  static final int CHUNK = 64 * 1024;

  private Receiver() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println("usage: Receiver HOST PORT WARMUP_MS MEASURE_MS FILE...");
      System.exit(ExitCodes.USAGE);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    long warmupNanos = Long.parseLong(args[2]) * 1_000_000;
    long measureNanos = Long.parseLong(args[3]) * 1_000_000;
    List<String> files = Arrays.asList(args).subList(4, args.length);
    byte[] buf = new byte[CHUNK];
    long errors = 0;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 5000);
      s.setSoTimeout(30_000);
      s.setTcpNoDelay(true);
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      long start = System.nanoTime();
      int i = 0;
      while (System.nanoTime() - start < warmupNanos) {
        fetch(files.get(i++ % files.size()), host, in, out, buf);
      }
      System.out.println("measuring");
      System.out.flush();
      double cpuBefore = CpuTime.self();
      long t0 = System.nanoTime();
      long bytes = 0;
      long count = 0;
      long now;
      while ((now = System.nanoTime()) - t0 < measureNanos) {
        long n = fetch(files.get(i++ % files.size()), host, in, out, buf);
        if (n < 0) {
          errors++;
        } else {
          bytes += n;
        }
        count++;
      }
      double seconds = (now - t0) / 1e9;
      double cpu = CpuTime.self() - cpuBefore;
      System.out.println("done");
      System.out.printf(Locale.ROOT, "result bytes=%d seconds=%.6f files=%d cpu=%.3f errors=%d%n", bytes, seconds, count,
          cpu, errors);
    }
  }

  /**
   * One GET; the body's length, or -1 when the answer was not 200. Every read asks for up to 64 KB
   * (the head arrives in the first), and what arrives is dropped.
   */
  static long fetch(String file, String host, InputStream in, OutputStream out, byte[] buf) throws IOException {
    out.write(("GET /" + file + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    StringBuilder head = new StringBuilder(256);
    int matched = 0; // bytes of "\r\n\r\n" seen in a row
    long left = -1; // body bytes still to come, once the head is read
    while (left != 0) {
      int n = in.read(buf, 0, left < 0 ? buf.length : (int) Math.min(buf.length, left));
      if (n < 0) {
        throw new IOException("connection closed during /" + file);
      }
      int i = 0;
      if (left < 0) {
        for (; i < n && matched < 4; i++) {
          int b = buf[i] & 0xff;
          head.append((char) b);
          matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        if (matched < 4) {
          continue;
        }
        left = contentLength(head.toString());
      }
      left -= n - i;
      if (left < 0) {
        throw new IOException("more bytes than Content-Length in the answer for /" + file);
      }
    }
    return head.toString().startsWith("HTTP/1.1 200") ? contentLength(head.toString()) : -1;
  }

  static long contentLength(String head) throws IOException {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    throw new IOException("an answer without Content-Length: " + head.strip());
  }
}
