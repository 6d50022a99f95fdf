package io.portshare.web;

import io.portshare.web.StaticFiles.AnswerListener;
import io.portshare.web.StaticFiles.Body;
import io.portshare.web.internal.FileDecision;
import io.portshare.web.internal.OpenFile;
import io.portshare.web.internal.VertxFileHead;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Writes what {@link StaticFiles} decided on a Vert.x response: a file's answer as a
 * {@link FileDecision} says (its header values pre-encoded once per cache entry, {@link VertxFileHead}),
 * the redirect to a slash, 400, a listing page; each told to the {@link AnswerListener}.
 */
final class Answers {

  private static final CharSequence GZIP = HttpHeaders.createOptimized("gzip");
  private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");
  private static final CharSequence BYTES = HttpHeaders.createOptimized("bytes");
  private static final CharSequence ZERO = HttpHeaders.createOptimized("0");
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final CharSequence HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");
  private static final Buffer BAD_REQUEST = Buffer.buffer("Bad Request\n");
  private static final int CHUNK = 64 * 1024;

  private final boolean sendfile;
  private final CharSequence cacheControl;
  private final AnswerListener listener;
  private final OpenOptions reading = new OpenOptions().setRead(true);

  /** {@code cacheControl} null for none. */
  Answers(boolean sendfile, CharSequence cacheControl, AnswerListener listener) {
    this.sendfile = sendfile;
    this.cacheControl = cacheControl;
    this.listener = listener;
  }

  void file(RoutingContext ctx, FileDecision d) {
    HttpServerResponse resp = ctx.response().setStatusCode(d.status);
    VertxFileHead h = VertxFileHead.of(d.rep);
    var out = resp.headers();
    out.add(HttpHeaders.ETAG, h.etag).add(HttpHeaders.LAST_MODIFIED, h.lastModified)
        .add(HttpHeaders.ACCEPT_RANGES, BYTES);
    if (d.gzip) {
      out.add(HttpHeaders.CONTENT_ENCODING, GZIP);
    }
    if (d.vary) {
      out.add(HttpHeaders.VARY, ACCEPT_ENCODING);
    }
    if (cacheControl != null) {
      out.add(HttpHeaders.CACHE_CONTROL, cacheControl);
    }
    if (d.typed) {
      out.add(HttpHeaders.CONTENT_TYPE, h.contentType);
    }
    if (d.contentRange != null) {
      out.add(HttpHeaders.CONTENT_RANGE, d.contentRange);
    }
    if (d.contentLength == d.rep.size) {
      out.add(HttpHeaders.CONTENT_LENGTH, h.contentLength);
    } else if (d.contentLength >= 0) {
      out.add(HttpHeaders.CONTENT_LENGTH, d.contentLength == 0 ? ZERO : Long.toString(d.contentLength));
    }
    if (d.bodyLength == 0) {
      listener.answered(d.status, 0, Body.NONE);
      resp.end();
    } else if (d.fromMemory()) {
      listener.answered(d.status, d.bodyLength, Body.MEMORY);
      resp.end(d.bodyLength == d.rep.size ? h.body : h.body.slice((int) d.offset, (int) (d.offset + d.bodyLength)));
    } else if (sendfile) {
      listener.answered(d.status, d.bodyLength, Body.SENDFILE);
      sendFile(ctx.request(), d);
    } else {
      listener.answered(d.status, d.bodyLength, Body.COPY);
      copy(ctx, d);
    }
  }

  /** 301 to {@code full}, the request's whole raw path, with a slash, its query kept. */
  void redirectToSlash(RoutingContext ctx, String full) {
    String uri = ctx.request().uri();
    int q = uri.indexOf('?');
    listener.answered(301, 0, Body.NONE);
    ctx.response().setStatusCode(301)
        .putHeader(HttpHeaders.LOCATION, full + "/" + (q < 0 ? "" : uri.substring(q)))
        .putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
  }

  void badRequest(RoutingContext ctx, boolean head) {
    listener.answered(400, 0, Body.NONE);
    HttpServerResponse resp = ctx.response().setStatusCode(400);
    resp.headers().add(HttpHeaders.CONTENT_TYPE, TEXT)
        .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(BAD_REQUEST.length()));
    if (head) {
      resp.end();
    } else {
      resp.end(BAD_REQUEST);
    }
  }

  /** A directory's listing page. */
  void listing(RoutingContext ctx, byte[] page, boolean head) {
    listener.answered(200, head ? 0 : page.length, head ? Body.NONE : Body.MEMORY);
    HttpServerResponse resp = ctx.response();
    resp.headers().add(HttpHeaders.CONTENT_TYPE, HTML)
        .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(page.length));
    if (head) {
      resp.end();
    } else {
      resp.end(Buffer.buffer(page));
    }
  }

  /**
   * By sendfile(2), from the descriptor the cache keeps open for the file, lent to this answer until
   * its write is done or failed (a hit makes no open(2)); where the cache keeps none (past its limit,
   * {@code openFilesMax(0)}, after {@link StaticFiles#close()}), from the path it resolved, opened here
   * and closed once sent (an open(2), no stat). If the file went away since it was checked the answer
   * cannot be given (its head may be out) and the connection is cut.
   */
  private static void sendFile(HttpServerRequest req, FileDecision d) {
    OpenFile open = d.rep.open;
    FileChannel channel;
    if (open != null) {
      channel = open.lend();
    } else {
      try {
        channel = FileChannel.open(d.rep.path, StandardOpenOption.READ);
      } catch (IOException e) {
        req.connection().close();
        return;
      }
    }
    Future<Void> sent;
    try {
      // Vert.x sends it as a region of its own that never closes it, completing this once written.
      sent = req.response().sendFile(channel, d.offset, d.bodyLength);
    } catch (RuntimeException e) {
      giveBack(open, channel);
      throw e;
    }
    sent.onComplete(done -> {
      giveBack(open, channel);
      if (done.failed()) {
        req.connection().close();
      }
    });
  }

  /** The kept file's loan given back, or the file opened for one answer closed. */
  private static void giveBack(OpenFile open, FileChannel channel) {
    if (open != null) {
      open.release();
      return;
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // a read-only descriptor: nothing was left to write back
    }
  }

  /** The copying path: the file read in chunks off the event loop and piped to the response. */
  private void copy(RoutingContext ctx, FileDecision d) {
    HttpServerRequest req = ctx.request();
    ctx.vertx().fileSystem().open(d.rep.pathString, reading).onComplete(opened -> {
      if (opened.failed()) {
        req.connection().close();
        return;
      }
      AsyncFile file = opened.result();
      file.setReadPos(d.offset).setReadLength(d.bodyLength).setReadBufferSize(CHUNK);
      file.pipeTo(req.response()).onComplete(done -> file.close());
    });
  }
}
