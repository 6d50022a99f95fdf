package io.portshare.statics;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import java.nio.charset.StandardCharsets;

/**
 * Answers the requests of one event loop: {@link RequestRouter} says what a request names,
 * {@link Precondition} and {@link ByteRange} what part of a file goes back, and this writes the
 * answer with pre-encoded headers. vertx-web's StaticHandler behind a Router is used only for
 * directory listings; for files this lean handler replaces it (static-server/README.md has the figures).
 */
final class FileRequestHandler implements Handler<HttpServerRequest> {

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

  private final Vertx vertx;
  private final RequestRouter router;
  /** The listing pages (--listing), or null. */
  private final Router listing;
  private final boolean sendfile;
  /** Pre-encoded, or null for no Cache-Control. */
  private final CharSequence cacheControl;
  /** The meters requests count in: warm-up ones before ready, then the service's. */
  private StaticMetrics metrics;
  /** The Date header, pre-encoded and refreshed once a second as the fast Vert.x servers do. */
  private CharSequence date;
  private long now;

  FileRequestHandler(Vertx vertx, RequestRouter router, Router listing, boolean sendfile, CharSequence cacheControl,
      StaticMetrics metrics) {
    this.vertx = vertx;
    this.router = router;
    this.listing = listing;
    this.sendfile = sendfile;
    this.cacheControl = cacheControl;
    this.metrics = metrics;
    tick(System.currentTimeMillis());
  }

  private static Buffer constant(String s) {
    return CachedFile.directBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The time requests are answered at from now on (the Date header, the cache's freshness). */
  void tick(long epochMillis) {
    now = epochMillis;
    date = HttpHeaders.createOptimized(HttpDates.format(epochMillis));
  }

  /** From now on, requests count in these meters. */
  void countIn(StaticMetrics metrics) {
    this.metrics = metrics;
  }

  /** A request Vert.x could not decode: answered as Vert.x does, and counted. */
  void invalid(HttpServerRequest req) {
    HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(req);
    metrics.status(req.response().getStatusCode());
  }

  @Override
  public void handle(HttpServerRequest req) {
    Route route = router.route(req.method(), req.path(), now);
    if (route instanceof CachedFile file) {
      serve(req, file, req.method() == HttpMethod.HEAD);
      return;
    }
    switch ((Route.NoFile) route) {
      case METHOD_NOT_ALLOWED -> {
        req.response().putHeader(HttpHeaders.ALLOW, GET_HEAD);
        error(req, 405, METHOD_NOT_ALLOWED);
      }
      case BAD_REQUEST -> error(req, 400, BAD_REQUEST);
      case NOT_FOUND -> error(req, 404, NOT_FOUND);
      case ADD_SLASH -> {
        String query = req.query();
        req.response().putHeader(HttpHeaders.LOCATION, req.path() + "/" + (query == null ? "" : "?" + query));
        error(req, 301, null);
      }
      case LISTING -> {
        HttpServerResponse res = req.response();
        res.putHeader(HttpHeaders.SERVER, SERVER).putHeader(HttpHeaders.DATE, date);
        res.endHandler(v -> metrics.status(res.getStatusCode()));
        listing.handle(req);
      }
    }
  }

  private void serve(HttpServerRequest req, CachedFile file, boolean head) {
    HttpServerResponse res = req.response();
    CachedFile rep = file;
    if (file.gzip != null && AcceptEncoding.allowsGzip(req.getHeader(HttpHeaders.ACCEPT_ENCODING))) {
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
    Precondition precondition = Precondition.of(req.getHeader(IF_UNMODIFIED_SINCE),
        req.getHeader(HttpHeaders.IF_NONE_MATCH), req.getHeader(HttpHeaders.IF_MODIFIED_SINCE), rep.etag,
        rep.modifiedSeconds);
    if (precondition == Precondition.FAILED) {
      res.setStatusCode(412).putHeader(HttpHeaders.CONTENT_LENGTH, "0");
      res.headers().remove(HttpHeaders.CONTENT_TYPE);
      metrics.status(412);
      res.end();
      return;
    }
    if (precondition == Precondition.NOT_MODIFIED) {
      res.setStatusCode(304);
      metrics.status(304);
      res.end();
      return;
    }
    long offset = 0;
    long length = rep.size;
    String range = req.getHeader(RANGE);
    long[] r = range == null ? null : ByteRange.of(range, req.getHeader(IF_RANGE), rep.size, rep.etag,
        rep.modifiedSeconds);
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
      res.setStatusCode(206).putHeader(HttpHeaders.CONTENT_RANGE, "bytes " + r[0] + "-" + r[1] + "/" + rep.size);
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
}
