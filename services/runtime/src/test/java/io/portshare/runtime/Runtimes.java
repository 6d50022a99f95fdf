package io.portshare.runtime;

import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.net.InheritedSockets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The services a test starts in its own JVM, each stopped when the test is over, passed or failed:
 *
 * <pre>{@code
 * @RegisterExtension
 * final Runtimes runtimes = new Runtimes();
 * ...
 * ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0");
 * }</pre>
 *
 * A runtime started in a test (or in its {@code @BeforeEach}) stops after that test; one started
 * in {@code @BeforeAll}, through a {@code static} field, stops after the class. They stop in the
 * reverse order of their start, each with a one-second drain; one the test stopped itself is left
 * alone. Other modules' tests reach this class through the runtime's test jar, which holds it alone.
 */
public final class Runtimes implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private static final Duration DRAIN = Duration.ofSeconds(1);
  private static final String CHANNEL_ENV = "PORTSHARE_CHANNEL";

  private final List<ServiceRuntime> forTest = new ArrayList<>();
  private final List<ServiceRuntime> forClass = new ArrayList<>();
  private volatile boolean inTest;

  /**
   * Starts {@code descriptor} from command-line style flags, as {@link ServiceRuntime#start} does;
   * on the channels {@code PORTSHARE_CHANNEL} names, when set and the flags name none, so that the
   * build can run a whole suite on each {@code --channel}.
   */
  public ServiceRuntime start(ServiceDescriptor descriptor, String... flags) {
    return stopLater(ServiceRuntime.start(descriptor, withChannel(flags)));
  }

  /** {@code flags}, with {@code --channel} from {@code PORTSHARE_CHANNEL} where they have none and it is set. */
  public static String[] withChannel(String... flags) {
    String channel = System.getenv(CHANNEL_ENV);
    if (channel == null || channel.isEmpty()
        || Arrays.stream(flags).anyMatch(f -> f.equals("--channel") || f.startsWith("--channel="))) {
      return flags;
    }
    String[] with = Arrays.copyOf(flags, flags.length + 1);
    with[flags.length] = "--channel=" + channel;
    return with;
  }

  /** Starts {@code descriptor} on listening sockets it is handed, as systemd or the supervisor hand them. */
  public ServiceRuntime start(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited) {
    return stopLater(ServiceRuntime.start(descriptor, settings, inherited));
  }

  /**
   * Stops, now, what would be stopped at the end of the current test (or class): for a test whose
   * own clean-up must come after the runtimes', such as closing the sockets it handed them.
   */
  public void stopAll() {
    stop(inTest ? forTest : forClass);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    inTest = true;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    inTest = false;
    stop(forTest);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop(forClass);
  }

  private ServiceRuntime stopLater(ServiceRuntime runtime) {
    List<ServiceRuntime> scope = inTest ? forTest : forClass;
    synchronized (scope) {
      scope.add(runtime);
    }
    return runtime;
  }

  private static void stop(List<ServiceRuntime> scope) {
    RuntimeException failed = null;
    while (true) {
      ServiceRuntime last;
      synchronized (scope) {
        if (scope.isEmpty()) {
          break;
        }
        last = scope.remove(scope.size() - 1);
      }
      try {
        last.stop(DRAIN);
      } catch (RuntimeException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
