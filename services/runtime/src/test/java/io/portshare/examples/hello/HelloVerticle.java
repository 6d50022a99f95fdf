package io.portshare.examples.hello;

import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;

/** One instance of the hello service: one HTTP server on the shared port, on this event loop. */
public final class HelloVerticle extends ServiceVerticle {

  @Override
  public Future<?> start() {
    String greeting = service.settings().getString("greeting") + " from loop " + service.instance() + "\n";
    return service.listen(vertx.createHttpServer(service.httpServerOptions())
        .requestHandler(req -> answer(req, greeting)));
  }

  private void answer(HttpServerRequest req, String greeting) {
    String delay = req.getParam("delay");
    if (delay == null) {
      req.response().end(greeting);
    } else {
      vertx.setTimer(Long.parseLong(delay), t -> req.response().end(greeting));
    }
  }
}
