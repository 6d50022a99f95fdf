package io.portshare.test;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import java.util.List;

/** A service as a user writes one: a vertx-web Router on an HttpServer, listened through the runtime. */
final class GreeterService implements ServiceDescriptor {

  @Override
  public String name() {
    return "greeter";
  }

  @Override
  public String description() {
    return "greeter: GET /hello";
  }

  @Override
  public int defaultPort() {
    return 8000;
  }

  @Override
  public int defaultAdminPort() {
    return 8001;
  }

  @Override
  public List<Option> options() {
    return List.of(Option.string("greeting", "hello", "what GET /hello answers"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new GreeterVerticle();
  }

  static final class GreeterVerticle extends ServiceVerticle {
    @Override
    public Future<?> start() {
      Router router = Router.router(vertx);
      String name = config().getString("name", "world");
      router.get("/hello").handler(ctx -> ctx.end(service.settings().getString("greeting") + ", " + name));
      return service.listen(vertx.createHttpServer(service.httpServerOptions()).requestHandler(router));
    }
  }
}
