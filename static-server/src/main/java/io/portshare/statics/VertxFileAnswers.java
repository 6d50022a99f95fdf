package io.portshare.statics;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.portshare.web.StaticFiles;
import io.portshare.web.internal.HttpDates;
import io.portshare.web.internal.RequestPath;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * What {@code --engine vertx} answers around portshare-web's {@link StaticFiles}, which answers every
 * file (the same decision classes as the own engine's {@link FileAnswers}, so the same answers): this
 * service's {@code Server} and {@code Date} on every answer (the Date once a second), each answer
 * timed, what the handler passes on answered 404 (GET, HEAD) or 405 with {@code Allow}, and the
 * requests Vert.x or the Router refuse before any route, all counted in {@link StaticMetrics}
 * (which the handler tells of its own answers, as its {@link StaticFiles.AnswerListener}).
 *
 * <p>Why StaticFiles and not vertx-web's {@code StaticHandler}: in vertx-web 5.0.7 that handler sends
 * no ETag (so no If-None-Match or entity-tag If-Range), never answers 412, knows no pre-compressed
 * {@code .gz} sibling, and lists directories with a page of its own (services/web/README.md).
 */
final class VertxFileAnswers {

  private static final CharSequence PORTSHARE = HttpHeaders.createOptimized("portshare");
  private static final CharSequence GET_HEAD = HttpHeaders.createOptimized("GET, HEAD");
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final CharSequence ZERO = HttpHeaders.createOptimized("0");
  private static final Buffer NOT_FOUND = Buffer.buffer("Not Found\n");
  private static final Buffer BAD_REQUEST = Buffer.buffer("Bad Request\n");
  private static final Buffer METHOD_NOT_ALLOWED = Buffer.buffer("Method Not Allowed\n");

  /** The meters answers count in: warm-up ones until the runtime's warm-up has ended (ServiceContext.warmUpSplit). */
  private final Supplier<StaticMetrics> metrics;
  private CharSequence date;

  VertxFileAnswers(Supplier<StaticMetrics> metrics) {
    this.metrics = metrics;
    tick(System.currentTimeMillis());
  }

  /** The time requests are answered at from now on (the Date header). */
  void tick(long epochMillis) {
    date = HttpHeaders.createOptimized(HttpDates.format(epochMillis));
  }

  /** The handler's listener: its answers counted in this instance's meters. */
  StaticFiles.AnswerListener listener() {
    return (status, bytes, body) -> {
      StaticMetrics m = metrics.get();
      m.status(status);
      m.bodyBytes += bytes;
      if (body == StaticFiles.Body.SENDFILE) {
        m.sendfileBytes += bytes;
      } else if (body != StaticFiles.Body.NONE) {
        m.copiedBytes += bytes;
      }
    };
  }

  /**
   * The Router's first route: Server and Date on the answer, and the answer timed into
   * {@code portshare_static_answer_seconds} from here (the request head has just been decoded) to its
   * end, as the own engine times it. The end handler is one more object per answer beside the
   * request, response and routing context Vert.x makes for each; the own engine's timer allocates none.
   */
  void front(RoutingContext ctx) {
    ctx.response().headers().add(HttpHeaders.SERVER, PORTSHARE).add(HttpHeaders.DATE, date);
    long start = System.nanoTime();
    StaticMetrics countedIn = metrics.get();
    ctx.addEndHandler(done -> {
      if (done.succeeded()) {
        countedIn.answerSeconds.record(System.nanoTime() - start);
      }
    });
    ctx.next();
  }

  /** The last route: what StaticFiles passed on is 404 for GET and HEAD, 405 with Allow for any other method. */
  void rest(RoutingContext ctx) {
    HttpServerResponse resp = ctx.response();
    HttpMethod method = ctx.request().method();
    boolean head = method == HttpMethod.HEAD;
    if (head || method == HttpMethod.GET) {
      error(resp, 404, NOT_FOUND, head);
    } else {
      resp.headers().add(HttpHeaders.ALLOW, GET_HEAD);
      error(resp, 405, METHOD_NOT_ALLOWED, false);
    }
  }

  /**
   * The Router's 404 before any route (a target that does not start with '/'): 400 for GET and HEAD,
   * 405 for another method, as the own engine answers it.
   */
  void notRouted(RoutingContext ctx) {
    ctx.response().headers().add(HttpHeaders.SERVER, PORTSHARE).add(HttpHeaders.DATE, date);
    HttpServerRequest req = ctx.request();
    if (RequestPath.of(RequestPath.rawPath(req.uri())).refusal() == RequestPath.BAD_REQUEST
        && (req.method() == HttpMethod.GET || req.method() == HttpMethod.HEAD)) {
      error(ctx.response(), 400, BAD_REQUEST, req.method() == HttpMethod.HEAD);
    } else {
      rest(ctx);
    }
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

  private Future<Void> error(HttpServerResponse resp, int status, Buffer body, boolean head) {
    metrics.get().status(status);
    resp.setStatusCode(status);
    resp.headers().add(HttpHeaders.CONTENT_TYPE, TEXT)
        .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length()));
    return head ? resp.end() : resp.end(body);
  }
}
