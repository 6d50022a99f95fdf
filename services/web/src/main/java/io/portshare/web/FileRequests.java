package io.portshare.web;

import io.portshare.web.internal.CachedFile;
import io.portshare.web.internal.DirectoryListing;
import io.portshare.web.internal.FileCache;
import io.portshare.web.internal.FileDecision;
import io.portshare.web.internal.RequestPath;
import io.portshare.web.internal.RequestRouter;
import io.portshare.web.internal.Route;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * What {@link StaticFiles} does with a request: each event loop's {@link RequestRouter} (over a cache
 * of its own) says what it names, a miss looked up on a worker (or in line, with
 * {@link StaticFiles.Builder#missesOnEventLoop}); a file is answered as its {@link FileDecision} says,
 * by {@link Answers}, and what it does not serve goes to {@code ctx.next()}. {@link #close} closes the
 * files every cache keeps open, each on its own thread.
 */
final class FileRequests {

  private final SiteRoot site;
  private final FileCache.Config config;
  private final boolean listing;
  private final boolean missesOnEventLoop;
  private final Answers answers;
  /** Each thread's router over its own cache (an event loop's, in practice); null until the root is known. */
  private final ThreadLocal<RequestRouter> routers = new ThreadLocal<>();
  /** Every router made, with its thread and Vert.x context: {@link #close} reaches each cache on its own thread. */
  private final List<Made> made = new ArrayList<>();
  private boolean closed;

  private record Made(RequestRouter router, Thread thread, Context context) {
  }

  FileRequests(SiteRoot site, FileCache.Config config, boolean listing, boolean missesOnEventLoop, Answers answers) {
    this.site = site;
    this.config = config;
    this.listing = listing;
    this.missesOnEventLoop = missesOnEventLoop;
    this.answers = answers;
  }

  void handle(RoutingContext ctx) {
    RequestRouter router = routers.get();
    if (router != null) {
      route(ctx, router);
      return;
    }
    Path known = site.known();
    if (known != null) {
      route(ctx, routerHere(known));
      return;
    }
    blocking(ctx, site::find, root -> route(ctx, routerHere(root)));
  }

  private void route(RoutingContext ctx, RequestRouter router) {
    HttpServerRequest req = ctx.request();
    String full = RequestPath.rawPath(req.uri());
    String path = MountedPath.relative(ctx, full);
    boolean head = HttpMethod.HEAD.equals(req.method());
    long now = System.currentTimeMillis();
    Route route = missesOnEventLoop ? router.route(req.method().toNetty(), path, now)
        : router.cached(req.method().toNetty(), path, now);
    if (route instanceof Route.Lookup lookup) {
      blocking(ctx, () -> router.resolve(lookup, System.currentTimeMillis()),
          found -> answer(ctx, router.decide(lookup, found, System.currentTimeMillis()), full, path, head));
    } else {
      answer(ctx, route, full, path, head);
    }
  }

  private void answer(RoutingContext ctx, Route route, String full, String path, boolean head) {
    if (route instanceof CachedFile file) {
      answers.file(ctx, FileDecision.of(file, head, ctx.request().headers()::get));
      return;
    }
    switch ((Route.NoFile) route) {
      case BAD_REQUEST -> answers.badRequest(ctx, head);
      case ADD_SLASH -> answers.redirectToSlash(ctx, full);
      case LISTING -> blocking(ctx, () -> new DirectoryListing(site.find(), config.hidden()).page(path), page -> {
        if (page == null) {
          ctx.next();
        } else {
          answers.listing(ctx, page, head);
        }
      });
      default -> ctx.next(); // a method not served, nothing there, a hidden name: a later route answers
    }
  }

  /** This thread's router, made on its first request once the root is known (after close, keeping no file open). */
  private RequestRouter routerHere(Path root) {
    RequestRouter r = routers.get();
    if (r == null) {
      synchronized (this) {
        r = new RequestRouter(new FileCache(root, closed ? config.withOpenFilesMax(0) : config), listing);
        made.add(new Made(r, Thread.currentThread(), Vertx.currentContext()));
      }
      routers.set(r);
    }
    return r;
  }

  /**
   * Closes the files every thread's cache keeps open, each on its own thread: this one's now, another
   * event loop's as a task on it (a cache is its thread's alone). The handler goes on answering, opening
   * each large file per answer.
   */
  void close() {
    List<Made> all;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      all = List.copyOf(made);
    }
    for (Made m : all) {
      if (m.thread == Thread.currentThread() || m.context == null) {
        m.router.close();
      } else {
        m.context.runOnContext(v -> m.router.close());
      }
    }
  }

  /**
   * Runs {@code work}, which may block, on a worker (on this thread with {@link Builder#missesOnEventLoop}),
   * and hands its result to {@code then} on this event loop; a failure fails the request.
   */
  private <T> void blocking(RoutingContext ctx, Callable<T> work, Handler<T> then) {
    Future<T> done;
    if (missesOnEventLoop) {
      try {
        done = Future.succeededFuture(work.call());
      } catch (Exception e) {
        done = Future.failedFuture(e);
      }
    } else {
      done = ctx.vertx().executeBlocking(work, false);
    }
    done.onComplete(result -> {
      if (result.failed()) {
        ctx.fail(result.cause());
      } else {
        then.handle(result.result());
      }
    });
  }
}
