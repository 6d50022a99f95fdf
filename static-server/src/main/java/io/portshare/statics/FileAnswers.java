package io.portshare.statics;

import io.portshare.web.internal.CachedFile;
import io.portshare.web.internal.DirectoryListing;
import io.portshare.web.internal.FileDecision;
import io.portshare.web.internal.RequestPath;
import io.portshare.web.internal.RequestRouter;
import io.portshare.web.internal.Route;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedNioFile;
import io.portshare.runtime.LatencyHistogram;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * Answers the requests of one event loop: {@link RequestRouter} says what a request names,
 * {@link FileDecision} what of a file goes back (as portshare-web's StaticFiles decides it), and this
 * writes the answer: the head from {@link AnswerHead}'s pre-encoded bytes, the head and a body from memory
 * written together and flushed once per read (one writev), a larger body by sendfile(2) from a
 * {@link DefaultFileRegion} (zero copy) or, with --no-sendfile, read from the file in chunks.
 */
final class FileAnswers {

  private static final byte[] ALLOW = CachedFile.field("allow", "GET, HEAD");
  private static final byte[] TEXT = CachedFile.field("content-type", "text/plain; charset=utf-8");
  private static final byte[] HTML = CachedFile.field("content-type", "text/html; charset=utf-8");
  private static final byte[] NO_BODY = CachedFile.field("content-length", "0");
  private static final ByteBuf NOT_FOUND = text("Not Found\n");
  private static final ByteBuf BAD_REQUEST = text("Bad Request\n");
  private static final ByteBuf METHOD_NOT_ALLOWED = text("Method Not Allowed\n");
  private static final int CHUNK = 64 * 1024;

  private final RequestRouter router;
  private final DirectoryListing listing;
  private final boolean sendfile;
  private final AnswerHead heads;
  /** The meters requests count in: warm-up ones before ready, then the service's. */
  /** The meters answers count in: warm-up ones until the runtime's warm-up has ended (ServiceContext.warmUpSplit). */
  private final Supplier<StaticMetrics> metrics;
  private long now;

  /** {@code listing} is null when --listing is off; {@code cacheControl} empty for none. */
  FileAnswers(RequestRouter router, DirectoryListing listing, boolean sendfile, String cacheControl,
      Supplier<StaticMetrics> metrics) {
    this.router = router;
    this.listing = listing;
    this.sendfile = sendfile;
    this.metrics = metrics;
    this.now = System.currentTimeMillis();
    this.heads = new AnswerHead(cacheControl, now);
  }

  private static ByteBuf text(String s) {
    return CachedFile.directBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The time requests are answered at from now on (the Date header, the cache's freshness). */
  void tick(long epochMillis) {
    now = epochMillis;
    heads.tick(epochMillis);
  }


  /** Where answers' times go now: the warm-up histogram before ready, then the service's. */
  LatencyHistogram latency() {
    return metrics.get().answerSeconds;
  }

  /** Closes the files the cache keeps open for sendfile; when the instance stops, on its event loop. */
  void close() {
    router.close();
  }

  /** Whether the answers need a ChunkedWriteHandler in the pipeline: the copying path of --no-sendfile. */
  boolean copiesFiles() {
    return !sendfile;
  }

  /**
   * Writes the whole answer to {@code req}, unflushed; {@code keepAlive} false says it is the
   * connection's last. A write that fails reaches the pipeline as an exception, which closes.
   */
  void answer(ChannelHandlerContext ctx, HttpRequest req, boolean keepAlive) {
    String uri = req.uri();
    String path = RequestPath.rawPath(uri);
    HttpMethod method = req.method();
    boolean head = method == HttpMethod.HEAD;
    Route route = router.route(method, path, now);
    if (route instanceof CachedFile file) {
      serve(ctx, req, file, head, keepAlive);
      return;
    }
    switch ((Route.NoFile) route) {
      case METHOD_NOT_ALLOWED -> error(ctx, req, 405, ALLOW, METHOD_NOT_ALLOWED, keepAlive);
      case BAD_REQUEST -> error(ctx, req, 400, null, BAD_REQUEST, keepAlive);
      case NOT_FOUND -> error(ctx, req, 404, null, NOT_FOUND, keepAlive);
      case ADD_SLASH -> {
        int q = uri.indexOf('?');
        String query = q < 0 ? "" : uri.substring(q);
        error(ctx, req, 301, CachedFile.field("location", path + "/" + query), null, keepAlive);
      }
      case LISTING -> {
        byte[] page = listing.page(path);
        if (page == null) {
          error(ctx, req, 404, null, NOT_FOUND, keepAlive);
          return;
        }
        metrics.get().status(200);
        ByteBuf out = heads.start(ctx, req.protocolVersion(), 200);
        out.writeBytes(HTML).writeBytes(CachedFile.field("content-length", Integer.toString(page.length)));
        AnswerHead.end(out, req.protocolVersion(), keepAlive);
        if (!head) {
          out.writeBytes(page);
        }
        ctx.write(out, ctx.voidPromise());
      }
    }
  }


  private void serve(ChannelHandlerContext ctx, HttpRequest req, CachedFile file, boolean head, boolean keepAlive) {
    FileDecision d = FileDecision.of(file, head, req.headers()::get);
    CachedFile rep = d.rep;
    if (rep.fields == null) {
      rep.fields = heads.fields(rep, d.gzip, d.vary);
    }
    // Read once per answer: warm-up meters until the warm-up has ended, the service's after.
    StaticMetrics m = metrics.get();
    m.status(d.status);
    HttpVersion version = req.protocolVersion();
    ByteBuf out = heads.start(ctx, version, d.status);
    if (d.typed) {
      out.writeBytes(rep.typeField);
    }
    out.writeBytes(rep.fields);
    if (d.contentRange != null) {
      out.writeBytes(CachedFile.field("content-range", d.contentRange));
    }
    if (d.contentLength == rep.size) {
      out.writeBytes(rep.lengthField);
    } else if (d.contentLength == 0) {
      out.writeBytes(NO_BODY);
    } else if (d.contentLength > 0) {
      out.writeBytes(CachedFile.field("content-length", Long.toString(d.contentLength)));
    }
    AnswerHead.end(out, version, keepAlive);
    ctx.write(out, ctx.voidPromise());
    if (d.bodyLength == 0) {
      return;
    }
    m.bodyBytes += d.bodyLength;
    if (d.fromMemory()) {
      // Head and body leave in one writev at the flush, where sendfile takes a writev and a sendfile
      // (static-server README, "What keeps a request cheap", says how to measure the difference).
      m.copiedBytes += d.bodyLength;
      ctx.write(rep.body.slice((int) d.offset, (int) d.bodyLength), ctx.voidPromise());
    } else if (sendfile) {
      m.sendfileBytes += d.bodyLength;
      // From the descriptor kept open with the cache entry (no open(2) on a hit); past the cache's
      // limit of open files, opened when the kernel is asked to send it and closed once sent. If
      // that file went away since it was checked, the answer cannot be finished: the write fails and
      // the connection is cut rather than the client left waiting for a body.
      ctx.write(rep.open != null ? rep.open.region(d.offset, d.bodyLength)
          : new DefaultFileRegion(rep.path.toFile(), d.offset, d.bodyLength), ctx.voidPromise());
    } else {
      m.copiedBytes += d.bodyLength;
      copy(ctx, rep.path, d.offset, d.bodyLength);
    }
  }

  /** The copying path, for --no-sendfile: the file read in chunks as the socket takes them, closed at the end. */
  private static void copy(ChannelHandlerContext ctx, Path path, long offset, long length) {
    FileChannel file;
    try {
      file = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException e) {
      ctx.close(); // gone since it was checked: cut the connection, as the sendfile path does
      return;
    }
    try {
      ctx.write(new ChunkedNioFile(file, offset, length, CHUNK)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } catch (IOException e) {
      ctx.close();
    }
  }

  private void error(ChannelHandlerContext ctx, HttpRequest req, int status, byte[] field, ByteBuf body,
      boolean keepAlive) {
    metrics.get().status(status);
    HttpVersion version = req.protocolVersion();
    ByteBuf out = heads.start(ctx, version, status);
    if (field != null) {
      out.writeBytes(field);
    }
    if (body == null) {
      out.writeBytes(NO_BODY);
    } else {
      out.writeBytes(TEXT).writeBytes(CachedFile.field("content-length", Integer.toString(body.readableBytes())));
    }
    AnswerHead.end(out, version, keepAlive);
    if (body != null && req.method() != HttpMethod.HEAD) {
      out.writeBytes(body, body.readerIndex(), body.readableBytes());
    }
    ctx.write(out, ctx.voidPromise());
  }
}
