package io.portshare.examples.hello;

import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.healthchecks.Status;

/**
 * One instance of the hello service: one HTTP server on the shared port, on this event loop.
 * {@code /config} answers its {@code config()}; {@code /down} and {@code /up} turn its readiness
 * check "downstream" (a dependency it would need) KO and OK.
 */
public final class HelloVerticle extends ServiceVerticle {

  private boolean downstreamUp = true;

  @Override
  public Future<?> start() {
    String greeting = service.settings().getString("greeting") + " from loop " + service.instance() + "\n";
    service.readinessCheck("downstream", p -> p.complete(downstreamUp ? Status.OK() : Status.KO()));
    return service.listen(vertx.createHttpServer(service.httpServerOptions())
        .requestHandler(req -> answer(req, greeting)));
  }

  private void answer(HttpServerRequest req, String greeting) {
    switch (req.path()) {
      case "/config" -> {
        req.response().end(config().encode());
        return;
      }
      case "/down", "/up" -> {
        downstreamUp = req.path().equals("/up");
        req.response().end(req.path() + "\n");
        return;
      }
      default -> { }
    }
    String delay = req.getParam("delay");
    if (delay == null) {
      req.response().end(greeting);
    } else {
      vertx.setTimer(Long.parseLong(delay), t -> req.response().end(greeting));
    }
  }
}
