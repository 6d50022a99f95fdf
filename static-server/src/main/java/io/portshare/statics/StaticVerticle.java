package io.portshare.statics;

import io.netty.channel.ChannelPipeline;
import io.portshare.runtime.NettyAccess;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * One instance of the static service: one HTTP server on this event loop, answering GET and HEAD
 * from its own {@link FileCache}. vertx-web's StaticHandler behind a Router is used only for
 * directory listings; for files this lean handler replaces it, see README for the figures.
 */
public final class StaticVerticle extends ServiceVerticle {

  private static final CharSequence SERVER = HttpHeaders.createOptimized("portshare");
  private static final CharSequence BYTES = HttpHeaders.createOptimized("bytes");
  private static final CharSequence GZIP = HttpHeaders.createOptimized("gzip");
  private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");
  private static final CharSequence GET_HEAD = HttpHeaders.createOptimized("GET, HEAD");
  private static final CharSequence RANGE = HttpHeaders.createOptimized("Range");
  private static final CharSequence IF_RANGE = HttpHeaders.createOptimized("If-Range");
  private static final CharSequence IF_UNMODIFIED_SINCE = HttpHeaders.createOptimized("If-Unmodified-Since");
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final Buffer NOT_FOUND = constant("Not Found\n");
  private static final Buffer BAD_REQUEST = constant("Bad Request\n");
  private static final Buffer METHOD_NOT_ALLOWED = constant("Method Not Allowed\n");

  private Path root;
  private boolean sendfile;
  private CharSequence cacheControl;
  private long headerTimeoutMillis;
  private FileCache cache;
  /** The meters requests count in: warm-up ones before ready, then {@link #served}. */
  private StaticMetrics metrics;
  private StaticMetrics served;
  private Router listing;
  private final Set<HeadWatch> connections = new HashSet<>();
  /** The Date header, pre-encoded and refreshed once a second as the fast Vert.x servers do. */
  private CharSequence date;
  private long now;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    root = s.root();
    sendfile = s.sendfile();
    cacheControl = s.cacheControl().isEmpty() ? null : HttpHeaders.createOptimized(s.cacheControl());
    headerTimeoutMillis = s.headerTimeout().toMillis();
    cache = new FileCache(root, s.memoryMax(), Math.max(s.memoryMax(), 64L << 20));
    served = new StaticMetrics(service.registry(), Integer.toString(service.instance()));
    metrics = service.warmingUp() ? new StaticMetrics() : served;
    if (s.listing()) {
      listing = Router.router(vertx);
      listing.route().handler(StaticHandler.create(FileSystemAccess.ROOT, root.toString())
          .setDirectoryListing(true).setIncludeHidden(false).setCachingEnabled(false));
    }
    tick();
    vertx.setPeriodic(1000, id -> tick());
    long sweepEvery = Math.max(50, Math.min(1000, headerTimeoutMillis / 4));
    vertx.setPeriodic(sweepEvery, id -> sweep());

    HttpServerOptions options = service.httpServerOptions()
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
        .invalidRequestHandler(req -> {
          HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(req);
          metrics.status(req.response().getStatusCode());
        })
        .requestHandler(this::handle));
  }

  @Override
  protected void warmedUp() {
    metrics = served;
  }

  private static Buffer constant(String s) {
    return CachedFile.directBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  private void tick() {
    now = System.currentTimeMillis();
    date = HttpHeaders.createOptimized(HttpDates.format(now));
  }

  private void connected(HttpConnection conn) {
    // The Netty pipeline is the only place that sees a request head begin.
    ChannelPipeline pipeline = NettyAccess.handlerContext(conn).pipeline();
    HeadWatch watch = new HeadWatch(pipeline);
    pipeline.addBefore("handler", null, new HeadGuard(metrics));
    long lifetime = service.connectionLifetime().toNanos();
    if (lifetime > 0) {
      pipeline.addBefore("handler", null, new ConnectionAgeLimit(lifetime));
    }
    connections.add(watch);
    conn.closeHandler(v -> connections.remove(watch));
  }

  private void sweep() {
    long t = System.currentTimeMillis();
    for (HeadWatch w : connections) {
      if (w.overdue(t, headerTimeoutMillis)) {
        w.headStartedAt = 0;
        metrics.headerTimeouts++;
        w.channel.close();
      }
    }
  }

  private void handle(HttpServerRequest req) {
    HttpMethod method = req.method();
    boolean head = method == HttpMethod.HEAD;
    if (!head && method != HttpMethod.GET) {
      req.response().putHeader(HttpHeaders.ALLOW, GET_HEAD);
      error(req, 405, METHOD_NOT_ALLOWED);
      return;
    }
    String raw = req.path();
    CachedFile file = cache.get(raw, now);
    if (file == null) {
      RequestPath path = RequestPath.of(raw);
      if (path.refused()) {
        error(req, path.refusal(), path.refusal() == RequestPath.BAD_REQUEST ? BAD_REQUEST : NOT_FOUND);
        return;
      }
      FileCache.Found found = cache.load(raw, path, now);
      if (found == FileCache.Miss.DIRECTORY_NEEDS_SLASH) {
        String query = req.query();
        req.response().putHeader(HttpHeaders.LOCATION, raw + "/" + (query == null ? "" : "?" + query));
        error(req, 301, null);
        return;
      }
      if (found == FileCache.Miss.DIRECTORY_WITHOUT_INDEX && listing != null) {
        HttpServerResponse res = req.response();
        res.putHeader(HttpHeaders.SERVER, SERVER).putHeader(HttpHeaders.DATE, date);
        res.endHandler(v -> metrics.status(res.getStatusCode()));
        listing.handle(req);
        return;
      }
      if (!(found instanceof CachedFile cached)) {
        error(req, 404, NOT_FOUND);
        return;
      }
      file = cached;
    }
    serve(req, file, head);
  }

  private void serve(HttpServerRequest req, CachedFile file, boolean head) {
    HttpServerResponse res = req.response();
    CachedFile rep = file;
    if (file.gzip != null && acceptsGzip(req.getHeader(HttpHeaders.ACCEPT_ENCODING))) {
      rep = file.gzip;
      res.putHeader(HttpHeaders.CONTENT_ENCODING, GZIP);
    }
    res.putHeader(HttpHeaders.SERVER, SERVER)
        .putHeader(HttpHeaders.DATE, date)
        .putHeader(HttpHeaders.CONTENT_TYPE, rep.contentType)
        .putHeader(HttpHeaders.ETAG, rep.etagHeader)
        .putHeader(HttpHeaders.LAST_MODIFIED, rep.lastModified)
        .putHeader(HttpHeaders.ACCEPT_RANGES, BYTES);
    if (file.gzip != null) {
      res.putHeader(HttpHeaders.VARY, ACCEPT_ENCODING);
    }
    if (cacheControl != null) {
      res.putHeader(HttpHeaders.CACHE_CONTROL, cacheControl);
    }
    if (unmodifiedSinceFails(req, rep)) {
      res.setStatusCode(412).putHeader(HttpHeaders.CONTENT_LENGTH, "0");
      res.headers().remove(HttpHeaders.CONTENT_TYPE);
      metrics.status(412);
      res.end();
      return;
    }
    if (notModified(req, rep)) {
      res.setStatusCode(304);
      metrics.status(304);
      res.end();
      return;
    }
    long offset = 0;
    long length = rep.size;
    String range = req.getHeader(RANGE);
    if (range != null && ifRangeHolds(req.getHeader(IF_RANGE), rep)) {
      long[] r = ByteRange.parse(range, rep.size);
      if (r == ByteRange.UNSATISFIABLE) {
        res.setStatusCode(416).putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + rep.size);
        res.headers().remove(HttpHeaders.CONTENT_TYPE);
        metrics.status(416);
        res.putHeader(HttpHeaders.CONTENT_LENGTH, "0").end();
        return;
      }
      if (r != null) {
        offset = r[0];
        length = r[1] - r[0] + 1;
        res.setStatusCode(206).putHeader(HttpHeaders.CONTENT_RANGE,
            "bytes " + r[0] + "-" + r[1] + "/" + rep.size);
      }
    }
    metrics.status(res.getStatusCode());
    res.putHeader(HttpHeaders.CONTENT_LENGTH, length == rep.size ? rep.contentLength : Long.toString(length));
    if (head || length == 0) {
      res.end();
      return;
    }
    metrics.bodyBytes += length;
    if (rep.body != null) {
      // Headers and body leave in one write (one writev). Against sendfile for a 1 KB file this took
      // the keep-alive ratio to nginx from 0.42 to about 0.9 (static-server README has the figures).
      metrics.copiedBytes += length;
      res.end(length == rep.size ? rep.body : rep.body.slice((int) offset, (int) (offset + length)));
    } else if (sendfile) {
      metrics.sendfileBytes += length;
      // If the file went away since it was checked, the answer cannot be finished: cut the
      // connection rather than leave the client waiting for a body.
      res.sendFile(rep.pathString, offset, length).onFailure(e -> res.reset());
    } else {
      metrics.copiedBytes += length;
      copy(res, rep, offset, length);
    }
  }

  /** The copying path, for --no-sendfile: the file is read into buffers and written from them. */
  private void copy(HttpServerResponse res, CachedFile rep, long offset, long length) {
    vertx.fileSystem().open(rep.pathString, new OpenOptions().setRead(true).setWrite(false).setCreate(false))
        .onSuccess(f -> f.setReadPos(offset).setReadLength(length).setReadBufferSize(64 * 1024).pipeTo(res)
            .onComplete(done -> f.close()))
        .onFailure(e -> res.reset());
  }

  private void error(HttpServerRequest req, int status, Buffer body) {
    metrics.status(status);
    HttpServerResponse res = req.response().setStatusCode(status)
        .putHeader(HttpHeaders.SERVER, SERVER)
        .putHeader(HttpHeaders.DATE, date);
    if (body == null || req.method() == HttpMethod.HEAD) {
      res.putHeader(HttpHeaders.CONTENT_LENGTH, body == null ? "0" : Integer.toString(body.length())).end();
    } else {
      res.putHeader(HttpHeaders.CONTENT_TYPE, TEXT).end(body);
    }
  }

  private static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    int i = acceptEncoding.indexOf("gzip");
    if (i < 0) {
      return false;
    }
    int end = acceptEncoding.indexOf(',', i);
    String param = acceptEncoding.substring(i + 4, end < 0 ? acceptEncoding.length() : end).replace(" ", "");
    return !param.startsWith(";q=0") || param.matches(";q=0\\.0*[1-9].*");
  }

  /**
   * RFC 9110 13.1.4: false when the file changed after the date given (412); a value that is not a
   * date is ignored. The first precondition of 13.2.2's order, since If-Match is not supported.
   */
  private static boolean unmodifiedSinceFails(HttpServerRequest req, CachedFile rep) {
    String ius = req.getHeader(IF_UNMODIFIED_SINCE);
    if (ius == null) {
      return false;
    }
    long since = HttpDates.parseSeconds(ius);
    return since >= 0 && rep.modifiedSeconds > since;
  }

  /** RFC 9110 13.2.2: If-None-Match wins over If-Modified-Since. */
  private static boolean notModified(HttpServerRequest req, CachedFile rep) {
    String inm = req.getHeader(HttpHeaders.IF_NONE_MATCH);
    if (inm != null) {
      for (String tag : inm.split(",")) {
        String t = tag.trim();
        if (t.startsWith("W/")) {
          t = t.substring(2);
        }
        if (t.equals("*") || t.equals(rep.etag)) {
          return true;
        }
      }
      return false;
    }
    String ims = req.getHeader(HttpHeaders.IF_MODIFIED_SINCE);
    if (ims != null) {
      long since = HttpDates.parseSeconds(ims);
      return since >= 0 && rep.modifiedSeconds <= since;
    }
    return false;
  }

  private static boolean ifRangeHolds(String ifRange, CachedFile rep) {
    if (ifRange == null) {
      return true;
    }
    String v = ifRange.trim();
    if (v.startsWith("\"")) {
      return v.equals(rep.etag);
    }
    return HttpDates.parseSeconds(v) == rep.modifiedSeconds;
  }
}
