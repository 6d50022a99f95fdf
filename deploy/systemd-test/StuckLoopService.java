package io.portshare.systemdtest;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * The service deploy/systemd-test.sh runs to show systemd's watchdog at work: an extension like any
 * other (a descriptor registered in META-INF/services, loaded by the launcher), whose HTTP handler
 * answers {@code GET /} and, on {@code GET /block}, never returns: it parks its event loop for good,
 * as a handler that waits on blocking I/O would. Nothing in the shipped services can do this; the
 * test builds this one next to them.
 */
public final class StuckLoopService implements ServiceDescriptor {

  @Override
  public String name() {
    return "stuck";
  }

  @Override
  public String description() {
    return "stuck: answers GET /, and blocks its event loop for good on GET /block (systemd watchdog test)";
  }

  @Override
  public int defaultPort() {
    return 7000;
  }

  @Override
  public int defaultAdminPort() {
    return 7001;
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new ServiceVerticle() {
      @Override
      public Future<?> start() {
        return service.listen(vertx.createHttpServer(service.httpServerOptions()).requestHandler(req -> {
          if (req.path().equals("/block")) {
            while (true) {
              LockSupport.park();
            }
          }
          req.response().end("not stuck, loop " + service.instance() + "\n");
        }));
      }
    };
  }
}
