package io.portshare.test;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.impl.VerticleDeployment;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Services for a test, stopped after it (or after the class, for those started in {@code @BeforeAll}):
 * <pre>{@code
 * @RegisterExtension
 * final Services services = new Services();
 *
 * @Test
 * void hello(Vertx vertx, VertxTestContext test) {
 *   RunningService greeter = services.start(new GreeterService(), "--port", "0", "--admin-port", "0");
 *   WebClient.create(vertx).get(greeter.port(), "127.0.0.1", "/hello").send() ...
 * }
 * }</pre>
 * {@link #start} runs the service on the runtime in this JVM, as the launcher would (its modes,
 * listener layer, admin port, connection policy; cold unless the flags ask for {@code --warmup}).
 * {@link #deploy} deploys its verticle, one instance, on a {@code Vertx} the test made (vertx-junit5's):
 * the verticle's context, {@code config()}, its hooks and the policy of {@code listen} on Vert.x's
 * servers, without the runtime's own transport or admin port.
 */
public final class Services implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private static final Duration DRAIN = Duration.ofSeconds(1);

  private final List<RunningService> forTest = new ArrayList<>();
  private final List<RunningService> forClass = new ArrayList<>();
  private volatile boolean inTest;

  /**
   * Starts {@code descriptor} on the runtime from command-line style flags and waits until it is
   * ready. Ask for {@code "--port", "0", "--admin-port", "0"} so that tests never collide on a port.
   */
  public RunningService start(ServiceDescriptor descriptor, String... flags) {
    ServiceRuntime runtime = ServiceRuntime.start(descriptor, flags);
    return stopLater(new RunningService() {
      @Override
      public int port() {
        return runtime.port();
      }

      @Override
      public int adminPort() {
        return runtime.adminPort();
      }

      @Override
      public void stop() {
        runtime.stop(DRAIN);
      }
    });
  }

  /**
   * Deploys one instance of {@code descriptor}'s verticle on {@code vertx}, its settings from
   * {@code flags} (ask for {@code "--port", "0"}); completes once it listens.
   */
  public Future<RunningService> deploy(Vertx vertx, ServiceDescriptor descriptor, String... flags) {
    return VerticleDeployment.deploy(vertx, descriptor, flags).map(d -> stopLater(new RunningService() {
      @Override
      public int port() {
        return d.port();
      }

      @Override
      public int adminPort() {
        return -1;
      }

      @Override
      public void stop() {
        try {
          d.undeploy(DRAIN.toMillis()).toCompletionStage().toCompletableFuture()
              .get(DRAIN.toMillis() * 5, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
          // The test's Vertx may be closed already (vertx-junit5 closes it after the test): nothing left.
        }
      }
    }));
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

  private RunningService stopLater(RunningService service) {
    List<RunningService> scope = inTest ? forTest : forClass;
    synchronized (scope) {
      scope.add(service);
    }
    return service;
  }

  private static void stop(List<RunningService> scope) {
    RuntimeException failed = null;
    while (true) {
      RunningService last;
      synchronized (scope) {
        if (scope.isEmpty()) {
          break;
        }
        last = scope.remove(scope.size() - 1);
      }
      try {
        last.stop();
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
