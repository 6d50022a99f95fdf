package io.portshare.test;

/** A service a test started ({@link Services}): where it listens, and a way to stop it early. */
public interface RunningService {

  /** The service port (the one the kernel chose when the test asked for port 0). */
  int port();

  /**
   * The admin port ({@code /health/live}, {@code /health/ready}, {@code /metrics}); -1 for a verticle
   * deployed on a test's own Vertx, which has none.
   */
  int adminPort();

  /** Drains and stops it now; {@link Services} does this after each test for whatever is left. */
  void stop();
}
