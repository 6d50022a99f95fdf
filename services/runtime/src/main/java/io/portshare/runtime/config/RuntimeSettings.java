package io.portshare.runtime.config;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.Units;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The options every service has, and their values resolved and typed: what the launcher, the
 * supervisor and the runtime read. No other class spells these keys; where an error must name a
 * value's source, this class says it.
 *
 * <p>{@code acceptOnEventLoop}: accept on the event loop itself where an instance has one loop and its
 * own socket (see RuntimeTransport). RPC 64B, one transaction per connection, --instances 2 --mode
 * reuseport, 3 alternated rounds on 2 CPUs: +8..15% transactions/s and 14..32% less server CPU per
 * transaction than Vert.x's separate acceptor thread. A drain then waits for the listener's accept
 * queue to empty (Listeners): a busy event loop leaves connections queued that an acceptor thread
 * would already have taken.
 */
public final class RuntimeSettings {

  private static final String PORT = "port";
  private static final String ADMIN_PORT = "admin-port";
  private static final String HOST = "host";
  private static final String INSTANCES = "instances";
  private static final String MODE = "mode";
  private static final String TRANSPORT = "transport";
  private static final String CHANNEL = "channel";
  private static final String DRAIN_TIMEOUT = "drain-timeout";
  private static final String LOG_FORMAT = "log-format";
  private static final String ACCEPT_ON_EVENT_LOOP = "accept-on-event-loop";
  private static final String ANSWER_HALF_CLOSED = "answer-half-closed";
  private static final String SUPERVISE = "supervise";
  private static final String LIVENESS_TIMEOUT = "liveness-timeout";
  private static final String MAX_CONNECTION_AGE = "max-connection-age";
  /** The one idle timeout of a service's connections: its own pipeline's sweep reads it, Vert.x's servers get it in their options. */
  public static final String IDLE_TIMEOUT = "idle-timeout";
  private static final String WARMUP = "warmup";
  private static final String VERTX_METRICS = "vertx-metrics";
  /** The --warmup bound; docs/warm-start.md has the measurement behind it. */
  static final String WARM_UP_DEFAULT = "12s";
  /** The most event loops one process runs. */
  static final int MAX_INSTANCES = 4096;
  /** The most processes one supervisor runs. */
  static final int MAX_SUPERVISE = 512;

  private final Settings settings;

  private RuntimeSettings(Settings settings) {
    this.settings = settings;
  }

  /** Every option of a service: the common ones with the service's defaults, then the service's own. */
  public static List<Option> options(ServiceDescriptor service) {
    List<Option> options = new ArrayList<>(commonOptions(service));
    options.addAll(service.options());
    return options;
  }

  /** The options every service has, with this service's default ports and idle timeout. */
  public static List<Option> commonOptions(ServiceDescriptor service) {
    int defaultPort = service.defaultPort();
    int defaultAdminPort = service.defaultAdminPort();
    int cpus = Runtime.getRuntime().availableProcessors();
    List<Option> options = new ArrayList<>(List.of(
        Option.port(PORT, defaultPort, "port the service listens on (0 picks a free one)"),
        Option.port(ADMIN_PORT, defaultAdminPort, "port of /health/live, /health/ready and /metrics"),
        Option.string(HOST, "0.0.0.0", "address to listen on"),
        Option.integer(INSTANCES, cpus, "event loops serving the port").within(1, MAX_INSTANCES)
            .withDefaultNote("the CPUs this JVM may use"),
        Option.choice(MODE, ScalingMode.REUSEPORT.label(), "how instances share the port",
            labels(ScalingMode.values(), ScalingMode::label)),
        Option.choice(TRANSPORT, TransportSetting.AUTO.label(), "auto uses native epoll when present, else NIO; "
            + "io_uring falls back to epoll where refused", labels(TransportSetting.values(), TransportSetting::label)),
        Option.choice(CHANNEL, ChannelSetting.LEAN.label(), "lean: the runtime's channels on epoll, the system calls"
            + " per connection of a C server, and Buffers decoded in place; netty: Netty's own channels and Vert.x's"
            + " public Buffer API, the stock path", labels(ChannelSetting.values(), ChannelSetting::label)),
        Option.flag(ACCEPT_ON_EVENT_LOOP, true,
            "with a socket per instance, accept on its event loop; false: Vert.x's acceptor thread"),
        Option.flag(ANSWER_HALF_CLOSED, true, "answer an HTTP/1.x client of a Vert.x HttpServer that half-closes after"
            + " its requests, then close, as nginx does; false: Vert.x's stock close on the client's FIN"),
        Option.path(Settings.CONFIG, "", "YAML or JSON file of option: value"),
        Option.duration(DRAIN_TIMEOUT, "10s", "on SIGTERM, how long open connections may finish"),
        Option.duration(LIVENESS_TIMEOUT, "10s", "/health/live fails when a service event loop has not run for this long"),
        Option.duration(IDLE_TIMEOUT, Units.format(service.defaultIdleTimeout()),
            "close a connection that neither reads nor writes this long (0: never)"),
        Option.duration(MAX_CONNECTION_AGE, "0s",
            "close connections older than this (jittered by up to a tenth either way) as a drain does, so new pods get"
                + " their share; 0: never"),
        Option.duration(WARMUP, WARM_UP_DEFAULT, "before ready, drive every instance with the service's own"
            + " requests over loopback until throughput settles, at most this long (0: off)"),
        Option.flag(VERTX_METRICS, false, "Vert.x's own HTTP and TCP server meters on /metrics (requests, response"
            + " time histograms, connections, bytes) for services on Vert.x's HttpServer or NetServer; a timer per"
            + " request, so off by default"),
        Option.integer(SUPERVISE, 0, "run N processes of the service on sockets bound once here; "
            + "SIGHUP replaces them one at a time, nothing reset (0: serve in this process)").within(0, MAX_SUPERVISE),
        Option.choice(LOG_FORMAT, LogFormat.TEXT.label(), "log lines as text or JSON",
            labels(LogFormat.values(), LogFormat::label))));
    return options;
  }

  private static <E> String[] labels(E[] values, Function<E, String> label) {
    return Arrays.stream(values).map(label).toArray(String[]::new);
  }

  /** The typed values of {@code settings}, which were resolved against {@link #options}. */
  public static RuntimeSettings of(Settings settings) {
    return new RuntimeSettings(settings);
  }

  /**
   * The flags a supervisor gives each child after the supervisor's own, which they replace: one
   * reuseport instance serving {@code port}, its admin server on {@code adminPort}, supervising none.
   */
  public static List<String> childFlags(int port, int adminPort) {
    return List.of("--" + SUPERVISE, "0", "--" + INSTANCES, "1", "--" + MODE, ScalingMode.REUSEPORT.label(),
        "--" + PORT, Integer.toString(port), "--" + ADMIN_PORT, Integer.toString(adminPort));
  }

  public int port() {
    return settings.getInt(PORT);
  }

  /** Where {@link #port} came from, for an error line: "default", "--port", "PORTSHARE_PORT", "config file F". */
  public String portSource() {
    return settings.sourceOf(PORT);
  }

  public int adminPort() {
    return settings.getInt(ADMIN_PORT);
  }

  public String host() {
    return settings.getString(HOST);
  }

  /** {@link #host} as an address of this machine, or the one-line error naming the value and its source. */
  public InetAddress hostAddress() {
    try {
      return InetAddress.getByName(host());
    } catch (UnknownHostException e) {
      throw settings.invalid(HOST, "an address of this host");
    }
  }

  public int instances() {
    return settings.getInt(INSTANCES);
  }

  /** Where {@link #instances} came from, for an error line. */
  public String instancesSource() {
    return settings.sourceOf(INSTANCES);
  }

  public ScalingMode mode() {
    return ScalingMode.of(settings.getString(MODE));
  }

  public TransportSetting transport() {
    return TransportSetting.of(settings.getString(TRANSPORT));
  }

  public ChannelSetting channel() {
    return ChannelSetting.of(settings.getString(CHANNEL));
  }

  public Duration drainTimeout() {
    return settings.getDuration(DRAIN_TIMEOUT);
  }

  public LogFormat logFormat() {
    return LogFormat.of(settings.getString(LOG_FORMAT));
  }

  public boolean acceptOnEventLoop() {
    return settings.getFlag(ACCEPT_ON_EVENT_LOOP);
  }

  /** True when Vert.x's HTTP servers answer a client that half-closes (--answer-half-closed). */
  public boolean answerHalfClosed() {
    return settings.getFlag(ANSWER_HALF_CLOSED);
  }

  public Duration livenessTimeout() {
    return settings.getDuration(LIVENESS_TIMEOUT);
  }

  public Duration idleTimeout() {
    return settings.getDuration(IDLE_TIMEOUT);
  }

  public Duration maxConnectionAge() {
    return settings.getDuration(MAX_CONNECTION_AGE);
  }

  public Duration warmup() {
    return settings.getDuration(WARMUP);
  }

  /** True when the service's Vert.x instances run vertx-micrometer-metrics' server meters (--vertx-metrics). */
  public boolean vertxMetrics() {
    return settings.getFlag(VERTX_METRICS);
  }

  /** Processes to supervise, 0 to serve in this process. */
  public int supervise() {
    return settings.getInt(SUPERVISE);
  }
}
