package io.portshare.kit;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A service's admin port seen from outside, as a load balancer or Prometheus sees it: readiness
 * ({@code /health/ready}) and the metrics ({@code /metrics}). The one readiness poll of every
 * harness: tests, the benchmark and the soak.
 */
public final class AdminPort {

  private static final long POLL_MILLIS = 100;

  private final String host;
  private final int port;

  public AdminPort(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** The admin port on loopback. */
  public AdminPort(int port) {
    this("127.0.0.1", port);
  }

  public int port() {
    return port;
  }

  /** True when {@code /health/ready} answers 200 now; false when it answers otherwise or not at all. */
  public boolean ready() {
    try {
      HttpURLConnection c = open("/health/ready");
      try {
        return c.getResponseCode() == 200;
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Polls readiness until it holds (true), the timeout passes or {@code starting} turns false
   * (false: the process exited, say).
   */
  public boolean awaitReady(Duration timeout, BooleanSupplier starting) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (starting.getAsBoolean()) {
      if (ready()) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  /** Polls readiness until it holds (true) or the timeout passes. */
  public boolean awaitReady(Duration timeout) {
    return awaitReady(timeout, () -> true);
  }

  /** {@code /metrics}, parsed strictly. */
  public PrometheusText metrics() throws IOException {
    return PrometheusText.parse(get("/metrics"));
  }

  /** The body of a GET on the admin port. */
  public String get(String path) throws IOException {
    HttpURLConnection c = open(path);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private HttpURLConnection open(String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create("http://" + host + ":" + port + path).toURL().openConnection();
    c.setConnectTimeout(2_000);
    c.setReadTimeout(30_000);
    return c;
  }
}
