package io.portshare.statics;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.FileSystem;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * The answers of {@code --engine vertx}: the same decisions as the own engine's {@link FileAnswers}
 * ({@link RequestRouter}, {@link FileCache}, {@link Precondition}, {@link ByteRange},
 * {@link AcceptEncoding}, {@link DirectoryListing}), written on Vert.x's {@link HttpServerResponse}
 * with header values pre-encoded ({@link VertxFileHead}, the Date once a second): a body from memory
 * with {@code end(Buffer)}, a larger one by {@code sendFile(FileChannel, offset, length)} (sendfile(2),
 * zero copy), with --no-sendfile read in chunks from an {@code AsyncFile} piped to the response.
 *
 * <p>Why these decisions and not vertx-web's {@code StaticHandler}: in vertx-web 5.0.7 that handler
 * sends no ETag (so no If-None-Match, If-Match or entity-tag If-Range), never answers 412, knows no
 * pre-compressed {@code .gz} sibling, and lists directories with a page of its own. The answers must
 * be the same on both engines where HTTP says so; with the same decision classes they are by
 * construction, and only the writing differs. The engine lives in this package, not one of its own,
 * because those classes and the meters ({@link StaticMetrics}) are package-private here.
 */
final class VertxFileAnswers {

  private static final CharSequence PORTSHARE = HttpHeaders.createOptimized("portshare");
  private static final CharSequence GET_HEAD = HttpHeaders.createOptimized("GET, HEAD");
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final CharSequence HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");
  private static final CharSequence GZIP = HttpHeaders.createOptimized("gzip");
  private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");
  private static final CharSequence BYTES = HttpHeaders.createOptimized("bytes");
  private static final CharSequence ZERO = HttpHeaders.createOptimized("0");
  private static final Buffer NOT_FOUND = Buffer.buffer("Not Found\n");
  private static final Buffer BAD_REQUEST = Buffer.buffer("Bad Request\n");
  private static final Buffer METHOD_NOT_ALLOWED = Buffer.buffer("Method Not Allowed\n");
  private static final int CHUNK = 64 * 1024;

  private final RequestRouter router;
  private final DirectoryListing listing;
  private final boolean sendfile;
  private final CharSequence cacheControl;
  private final FileSystem files;
  private final OpenOptions reading = new OpenOptions().setRead(true);
  /** The meters answers count in: warm-up ones until the runtime's warm-up has ended (ServiceContext.warmUpSplit). */
  private final Supplier<StaticMetrics> metrics;
  private CharSequence date;
  private long now;

  /** {@code listing} is null when --listing is off; {@code cacheControl} empty for none. */
  VertxFileAnswers(RequestRouter router, DirectoryListing listing, boolean sendfile, String cacheControl,
      FileSystem files, Supplier<StaticMetrics> metrics) {
    this.router = router;
    this.listing = listing;
    this.sendfile = sendfile;
    this.cacheControl = cacheControl.isEmpty() ? null : HttpHeaders.createOptimized(cacheControl);
    this.files = files;
    this.metrics = metrics;
    tick(System.currentTimeMillis());
  }

  /** The time requests are answered at from now on (the Date header, the cache's freshness). */
  void tick(long epochMillis) {
    now = epochMillis;
    date = HttpHeaders.createOptimized(HttpDates.format(epochMillis));
  }


  /**
   * {@link #answer} timed into {@code portshare_static_answer_seconds}, from the handler's call (the
   * request head has just been decoded) to the answer's last byte written, as the own engine times it.
   * The listener is one more object per answer beside the request, response and routing context
   * Vert.x makes for each; the own engine's timer allocates none.
   */
  Future<Void> answerTimed(HttpServerRequest req) {
    long start = System.nanoTime();
    StaticMetrics countedIn = metrics.get();
    return answer(req).andThen(done -> {
      if (done.succeeded()) {
        countedIn.answerSeconds.record(System.nanoTime() - start);
      }
    });
  }

  /** The Router's one route: answers any request; the future completes once the answer is written. */
  Future<Void> answer(HttpServerRequest req) {
    HttpServerResponse resp = req.response();
    resp.headers().add(HttpHeaders.SERVER, PORTSHARE).add(HttpHeaders.DATE, date);
    String uri = req.uri();
    String path = RequestPath.rawPath(uri);
    HttpMethod method = req.method();
    boolean head = method == HttpMethod.HEAD;
    // RequestRouter takes Netty's methods: any but GET and HEAD is answered 405 alike.
    io.netty.handler.codec.http.HttpMethod netty = head ? io.netty.handler.codec.http.HttpMethod.HEAD
        : method == HttpMethod.GET ? io.netty.handler.codec.http.HttpMethod.GET
        : io.netty.handler.codec.http.HttpMethod.OPTIONS;
    Route route = router.route(netty, path, now);
    if (route instanceof CachedFile file) {
      return serve(req, resp, file, head);
    }
    return switch ((Route.NoFile) route) {
      case METHOD_NOT_ALLOWED -> {
        resp.headers().add(HttpHeaders.ALLOW, GET_HEAD);
        yield error(resp, 405, METHOD_NOT_ALLOWED, head);
      }
      case BAD_REQUEST -> error(resp, 400, BAD_REQUEST, head);
      case NOT_FOUND -> error(resp, 404, NOT_FOUND, head);
      case ADD_SLASH -> {
        int q = uri.indexOf('?');
        resp.headers().add(HttpHeaders.LOCATION, path + "/" + (q < 0 ? "" : uri.substring(q)));
        yield error(resp, 301, null, head);
      }
      case LISTING -> {
        byte[] page = listing.page(path);
        if (page == null) {
          yield error(resp, 404, NOT_FOUND, head);
        }
        metrics.get().status(200);
        resp.headers().add(HttpHeaders.CONTENT_TYPE, HTML)
            .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(page.length));
        yield head ? resp.end() : resp.end(Buffer.buffer(page));
      }
    };
  }

  /**
   * A request Vert.x's decoder refused, answered as Vert.x's default does (414 for a request line
   * past --max-uri, 431 for a head past --max-header-size, 400 else, then close), with this
   * service's Server and Date, and counted.
   */
  void refuse(HttpServerRequest req) {
    Throwable cause = req.decoderResult().cause();
    int status = cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG.code()
        : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.code()
        : HttpResponseStatus.BAD_REQUEST.code();
    metrics.get().status(status);
    req.response().headers().add(HttpHeaders.SERVER, PORTSHARE).add(HttpHeaders.DATE, date);
    HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(req);
  }

  /**
   * A request the Router refused before any route (vertx-web answers 400 to an HTTP/1.1 request
   * without {@code Host}, as RFC 9112 section 3.2 and the own engine do): this service's 400, and
   * the connection closed once it is written, as for every request refused by its head.
   */
  void badRequest(HttpServerRequest req) {
    HttpServerResponse resp = req.response();
    resp.headers().add(HttpHeaders.SERVER, PORTSHARE).add(HttpHeaders.DATE, date)
        .add(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    error(resp, 400, BAD_REQUEST, req.method() == HttpMethod.HEAD).onComplete(done -> req.connection().close());
  }

  private Future<Void> serve(HttpServerRequest req, HttpServerResponse resp, CachedFile file, boolean head) {
    MultiMap in = req.headers();
    CachedFile rep = file;
    if (file.gzip != null && AcceptEncoding.allowsGzip(in.get(HttpHeaders.ACCEPT_ENCODING))) {
      rep = file.gzip;
    }
    VertxFileHead h = VertxFileHead.of(rep);
    MultiMap out = resp.headers();
    out.add(HttpHeaders.ETAG, h.etag).add(HttpHeaders.LAST_MODIFIED, h.lastModified)
        .add(HttpHeaders.ACCEPT_RANGES, BYTES);
    if (rep != file) {
      out.add(HttpHeaders.CONTENT_ENCODING, GZIP);
    }
    if (file.gzip != null) {
      out.add(HttpHeaders.VARY, ACCEPT_ENCODING);
    }
    if (cacheControl != null) {
      out.add(HttpHeaders.CACHE_CONTROL, cacheControl);
    }
    Precondition precondition = Precondition.of(in.get(HttpHeaderNames.IF_UNMODIFIED_SINCE),
        in.get(HttpHeaders.IF_NONE_MATCH), in.get(HttpHeaders.IF_MODIFIED_SINCE), rep.etag, rep.modifiedSeconds);
    if (precondition == Precondition.FAILED) {
      metrics.get().status(412);
      return resp.setStatusCode(412).putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
    }
    if (precondition == Precondition.NOT_MODIFIED) {
      metrics.get().status(304);
      return resp.setStatusCode(304).end();
    }
    String range = in.get(HttpHeaderNames.RANGE);
    long[] r = range == null ? null : ByteRange.of(range, in.get(HttpHeaderNames.IF_RANGE), rep.size, rep.etag,
        rep.modifiedSeconds);
    if (r == ByteRange.UNSATISFIABLE) {
      metrics.get().status(416);
      return resp.setStatusCode(416).putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + rep.size)
          .putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
    }
    long offset = 0;
    long length = rep.size;
    out.add(HttpHeaders.CONTENT_TYPE, h.contentType);
    if (r != null) {
      offset = r[0];
      length = r[1] - r[0] + 1;
      metrics.get().status(206);
      resp.setStatusCode(206);
      out.add(HttpHeaders.CONTENT_RANGE, "bytes " + r[0] + "-" + r[1] + "/" + rep.size)
          .add(HttpHeaders.CONTENT_LENGTH, Long.toString(length));
    } else {
      metrics.get().status(200);
      out.add(HttpHeaders.CONTENT_LENGTH, h.contentLength);
    }
    if (head || length == 0) {
      return resp.end();
    }
    metrics.get().bodyBytes += length;
    if (h.body != null) {
      metrics.get().copiedBytes += length;
      return resp.end(length == rep.size ? h.body : h.body.slice((int) offset, (int) (offset + length)));
    }
    if (sendfile) {
      metrics.get().sendfileBytes += length;
      return sendFile(req, rep, offset, length);
    }
    metrics.get().copiedBytes += length;
    return copy(req, rep, offset, length);
  }

  /**
   * By sendfile(2). The file is opened here, on the event loop, as the own engine's file region is
   * when it is written (an open, no stat: its size is the cache's); if it went away since it was
   * checked the answer cannot be given and the connection is cut, as the own engine does.
   */
  private Future<Void> sendFile(HttpServerRequest req, CachedFile rep, long offset, long length) {
    FileChannel channel;
    try {
      channel = FileChannel.open(rep.path, StandardOpenOption.READ);
    } catch (IOException e) {
      return cut(req, e);
    }
    return req.response().sendFile(channel, offset, length).andThen(done -> {
      try {
        channel.close();
      } catch (IOException ignored) {
        // a read-only descriptor: nothing was left to write back
      }
      if (done.failed()) {
        req.connection().close();
      }
    });
  }

  /** The copying path, for --no-sendfile: the file read in chunks off the event loop and piped to the response. */
  private Future<Void> copy(HttpServerRequest req, CachedFile rep, long offset, long length) {
    return files.open(rep.pathString, reading).compose((AsyncFile file) -> {
      file.setReadPos(offset).setReadLength(length).setReadBufferSize(CHUNK);
      return file.pipeTo(req.response()).andThen(done -> file.close());
    }, e -> cut(req, e));
  }

  private static Future<Void> cut(HttpServerRequest req, Throwable cause) {
    req.connection().close();
    return Future.failedFuture(cause);
  }

  private Future<Void> error(HttpServerResponse resp, int status, Buffer body, boolean head) {
    metrics.get().status(status);
    resp.setStatusCode(status);
    if (body == null) {
      return resp.putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
    }
    resp.headers().add(HttpHeaders.CONTENT_TYPE, TEXT)
        .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length()));
    return head ? resp.end() : resp.end(body);
  }
}
