package io.portshare.examples.worker;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;

/**
 * A service whose verticle deploys a worker verticle of its own, as docs/extending.md shows: the
 * HTTP verticle answers {@code GET /} with what the worker, on a worker thread of the same Vert.x,
 * replied over the event bus.
 */
public final class WorkerService implements ServiceDescriptor {

  static final String ADDRESS = "worker.blocking";

  @Override
  public String name() {
    return "worker-example";
  }

  @Override
  public String description() {
    return "worker-example: an HTTP verticle that asks a worker verticle of its own";
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
  public ServiceVerticle newVerticle() {
    return new FrontVerticle();
  }

  /** The service's verticle: deploys the worker, then listens. */
  static final class FrontVerticle extends ServiceVerticle {
    @Override
    public Future<?> start() {
      return vertx.deployVerticle(new BlockingWorker(), new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER))
          .compose(id -> service.listen(vertx.createHttpServer(service.httpServerOptions())
              .requestHandler(req -> vertx.eventBus().<String>request(ADDRESS, req.path())
                  .onSuccess(reply -> req.response().end(reply.body()))
                  .onFailure(e -> req.response().setStatusCode(500).end(e.getMessage())))));
    }
  }

  /** A plain Vert.x worker verticle: it may block. */
  static final class BlockingWorker extends VerticleBase {
    @Override
    public Future<?> start() {
      vertx.eventBus().<String>consumer(ADDRESS, msg -> msg.reply("worker on " + Thread.currentThread().getName()
          + " for " + msg.body()));
      return Future.succeededFuture();
    }
  }
}
