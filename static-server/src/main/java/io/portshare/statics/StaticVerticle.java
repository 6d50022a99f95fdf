package io.portshare.statics;

import io.portshare.runtime.NettyAccess;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * One instance of the static service: one HTTP server on this event loop, answering GET and HEAD
 * from its own {@link FileCache}. It wires the parts: {@link FileRequestHandler} answers requests,
 * {@link OpenConnections} sets each connection's pipeline up and sweeps slow heads.
 */
public final class StaticVerticle extends ServiceVerticle {

  /** The meters of this event loop; warm-up traffic counts in unregistered ones until ready. */
  private StaticMetrics served;
  private FileRequestHandler requests;
  private OpenConnections connections;
  private HttpServerOptions options;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    FileCache cache = new FileCache(s.root(), s.memoryMax(), Math.max(s.memoryMax(), 64L << 20));
    served = new StaticMetrics(service.registry(), Integer.toString(service.instance()));
    StaticMetrics metrics = service.warmingUp() ? new StaticMetrics() : served;
    Router listing = null;
    if (s.listing()) {
      listing = Router.router(vertx);
      listing.route().handler(StaticHandler.create(FileSystemAccess.ROOT, s.root().toString())
          .setDirectoryListing(true).setIncludeHidden(false).setCachingEnabled(false));
    }
    CharSequence cacheControl = s.cacheControl().isEmpty() ? null : HttpHeaders.createOptimized(s.cacheControl());
    requests = new FileRequestHandler(vertx, new RequestRouter(cache, listing != null), listing, s.sendfile(),
        cacheControl, metrics);
    long headerTimeoutMillis = s.headerTimeout().toMillis();
    connections = new OpenConnections(headerTimeoutMillis, metrics);
    vertx.setPeriodic(1000, id -> requests.tick(System.currentTimeMillis()));
    long sweepEvery = Math.max(50, Math.min(1000, headerTimeoutMillis / 4));
    vertx.setPeriodic(sweepEvery, id -> connections.sweep(System.currentTimeMillis()));

    options = service.httpServerOptions()
        .setMaxInitialLineLength(s.maxUri())
        .setMaxHeaderSize(s.maxHeaderSize())
        .setIdleTimeout((int) s.idleTimeout().toSeconds())
        .setCompressionSupported(false)
        .setDecompressionSupported(false)
        // h2c is off in the runtime's options, so the header timeout sees the first byte; the
        // WebSocket extension handler would be one more pipeline stage per connection for nothing.
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(false);
    return service.listen(vertx.createHttpServer(options)
        .connectionHandler(this::connected)
        .invalidRequestHandler(requests::invalid)
        .requestHandler(requests));
  }

  @Override
  protected void warmedUp() {
    requests.countIn(served);
    connections.countIn(served);
  }

  private void connected(HttpConnection conn) {
    // Two Content-Length lines in HTTP/1.0: Netty would keep the first before HeadGuard sees them.
    NettyAccess.refuseRepeatedContentLength(conn, options);
    // The Netty pipeline is the only place that sees a request head begin.
    connections.add(NettyAccess.handlerContext(conn).pipeline(), service.connectionLifetime().toNanos());
  }
}
