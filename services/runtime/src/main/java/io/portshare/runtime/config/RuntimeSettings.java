package io.portshare.runtime.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The options every service has, and their values resolved and typed: what the launcher and the
 * runtime read, so that no other class spells these keys.
 *
 * @param acceptOnEventLoop accept on the event loop itself where an instance has one loop and its own
 *     socket (see RuntimeTransport). RPC 64B, one transaction per connection, --instances 2 --mode
 *     reuseport, 3 alternated rounds on 2 CPUs: +8..15% transactions/s and 14..32% less server CPU
 *     per transaction than Vert.x's separate acceptor thread. A drain then waits for the listener's
 *     accept queue to empty (Listeners): a busy event loop leaves connections queued that an acceptor
 *     thread would already have taken.
 */
public record RuntimeSettings(int port, int adminPort, String host, int instances, ScalingMode mode,
    String transport, Duration drainTimeout, String logFormat, boolean acceptOnEventLoop, Duration livenessTimeout,
    Duration maxConnectionAge, Duration warmup, int supervise) {

  public static final String PORT = "port";
  public static final String ADMIN_PORT = "admin-port";
  public static final String HOST = "host";
  public static final String INSTANCES = "instances";
  public static final String MODE = "mode";
  public static final String TRANSPORT = "transport";
  public static final String DRAIN_TIMEOUT = "drain-timeout";
  public static final String LOG_FORMAT = "log-format";
  public static final String ACCEPT_ON_EVENT_LOOP = "accept-on-event-loop";
  public static final String SUPERVISE = "supervise";
  public static final String LIVENESS_TIMEOUT = "liveness-timeout";
  public static final String MAX_CONNECTION_AGE = "max-connection-age";
  public static final String WARMUP = "warmup";
  /** The --warmup bound; docs/warm-start.md has the measurement behind it. */
  static final String WARM_UP_DEFAULT = "12s";
  static final int MAX_INSTANCES = 4096;

  /** Every option of a service: the common ones with the service's default ports, then the service's own. */
  public static List<Option> options(int defaultPort, int defaultAdminPort, List<Option> serviceOptions) {
    int cpus = Runtime.getRuntime().availableProcessors();
    List<Option> options = new ArrayList<>(List.of(
        Option.port(PORT, defaultPort, "port the service listens on (0 picks a free one)"),
        Option.port(ADMIN_PORT, defaultAdminPort, "port of /health/live, /health/ready and /metrics"),
        Option.string(HOST, "0.0.0.0", "address to listen on"),
        Option.integer(INSTANCES, cpus, "event loops serving the port").withDefaultNote("the CPUs this JVM may use"),
        Option.choice(MODE, "reuseport", "how instances share the port", "shared", "reuseport", "pinned"),
        Option.choice(TRANSPORT, "auto", "auto uses native epoll when present, else NIO; io_uring falls back "
            + "to epoll where refused", "auto", "epoll", "io_uring", "nio"),
        Option.flag(ACCEPT_ON_EVENT_LOOP, true,
            "with a socket per instance, accept on its event loop; false: Vert.x's acceptor thread"),
        Option.path(Settings.CONFIG, "", "YAML or JSON file of option: value"),
        Option.duration(DRAIN_TIMEOUT, "10s", "on SIGTERM, how long open connections may finish"),
        Option.duration(LIVENESS_TIMEOUT, "10s", "/health/live fails when a service event loop has not run for this long"),
        Option.duration(MAX_CONNECTION_AGE, "0s",
            "close connections older than this (+-10%) as a drain does, so new pods get their share; 0s: never"),
        Option.duration(WARMUP, WARM_UP_DEFAULT, "before ready, drive every instance with the service's own"
            + " requests over loopback until throughput settles, at most this long (0: off)"),
        Option.integer(SUPERVISE, 0, "run N processes of the service on sockets bound once here; "
            + "SIGHUP replaces them one at a time, nothing reset (0: serve in this process)"),
        Option.choice(LOG_FORMAT, "text", "log lines as text or JSON", "text", "json")));
    options.addAll(serviceOptions);
    return options;
  }

  /** The typed values; a value out of range fails here with the one-line error. */
  public static RuntimeSettings of(Settings s) {
    int instances = s.getInt(INSTANCES);
    if (instances < 1 || instances > MAX_INSTANCES) {
      throw s.invalid(INSTANCES, "1.." + MAX_INSTANCES);
    }
    return new RuntimeSettings(s.getInt(PORT), s.getInt(ADMIN_PORT), s.getString(HOST), instances,
        ScalingMode.of(s.getString(MODE)), s.getString(TRANSPORT), s.getDuration(DRAIN_TIMEOUT),
        s.getString(LOG_FORMAT), s.getFlag(ACCEPT_ON_EVENT_LOOP), s.getDuration(LIVENESS_TIMEOUT),
        s.getDuration(MAX_CONNECTION_AGE), s.getDuration(WARMUP), s.getInt(SUPERVISE));
  }
}
