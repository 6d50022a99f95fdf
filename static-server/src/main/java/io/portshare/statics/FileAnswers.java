package io.portshare.statics;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedNioFile;
import io.portshare.runtime.LatencyHistogram;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Answers the requests of one event loop: {@link RequestRouter} says what a request names,
 * {@link Precondition} and {@link ByteRange} what part of a file goes back, and this writes the
 * answer, TechEmpower style: the status line and header fields pre-encoded (a file's own fields
 * once per cache entry, the Date once a second), the head and a body from memory written together
 * and flushed once per read (one writev), a larger body by sendfile(2) from a {@link DefaultFileRegion}
 * (zero copy) or, with --no-sendfile, read from the file in chunks.
 */
final class FileAnswers {

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] CLOSE = CachedFile.field("connection", "close");
  private static final byte[] KEEP_ALIVE = CachedFile.field("connection", "keep-alive");
  private static final byte[] ALLOW = CachedFile.field("allow", "GET, HEAD");
  private static final byte[] TEXT = CachedFile.field("content-type", "text/plain; charset=utf-8");
  private static final byte[] HTML = CachedFile.field("content-type", "text/html; charset=utf-8");
  private static final byte[] NO_BODY = CachedFile.field("content-length", "0");
  private static final byte[] GZIP = CachedFile.field("content-encoding", "gzip");
  private static final byte[] VARY = CachedFile.field("vary", "Accept-Encoding");
  private static final byte[] ACCEPT_RANGES = CachedFile.field("accept-ranges", "bytes");
  private static final ByteBuf NOT_FOUND = text("Not Found\n");
  private static final ByteBuf BAD_REQUEST = text("Bad Request\n");
  private static final ByteBuf METHOD_NOT_ALLOWED = text("Method Not Allowed\n");
  private static final int CHUNK = 64 * 1024;
  /** Status lines by version (0 for HTTP/1.0, 1 for 1.1) and code, for the codes answered here. */
  private static final byte[][][] STATUS_LINES = new byte[2][600][];

  static {
    for (int code : new int[] {200, 206, 301, 304, 400, 404, 405, 412, 416}) {
      String status = " " + HttpResponseStatus.valueOf(code) + "\r\n";
      STATUS_LINES[0][code] = ("HTTP/1.0" + status).getBytes(StandardCharsets.US_ASCII);
      STATUS_LINES[1][code] = ("HTTP/1.1" + status).getBytes(StandardCharsets.US_ASCII);
    }
  }

  private final RequestRouter router;
  private final DirectoryListing listing;
  private final boolean sendfile;
  /** {@code cache-control: ...} with its line end, or null for none. */
  private final byte[] cacheControl;
  /** The meters requests count in: warm-up ones before ready, then the service's. */
  private StaticMetrics metrics;
  /** {@code server} and {@code date}, pre-encoded and refreshed once a second as the fast Vert.x servers do. */
  private byte[] serverAndDate;
  private long now;

  /** {@code listing} is null when --listing is off; {@code cacheControl} empty for none. */
  FileAnswers(RequestRouter router, DirectoryListing listing, boolean sendfile, String cacheControl,
      StaticMetrics metrics) {
    this.router = router;
    this.listing = listing;
    this.sendfile = sendfile;
    this.cacheControl = cacheControl.isEmpty() ? null : CachedFile.field("cache-control", cacheControl);
    this.metrics = metrics;
    tick(System.currentTimeMillis());
  }

  private static ByteBuf text(String s) {
    return CachedFile.directBuffer(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The time requests are answered at from now on (the Date header, the cache's freshness). */
  void tick(long epochMillis) {
    now = epochMillis;
    serverAndDate = ("server: portshare\r\ndate: " + HttpDates.format(epochMillis) + "\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** From now on, requests count in these meters. */
  void countIn(StaticMetrics metrics) {
    this.metrics = metrics;
  }

  /** Where answers' times go now: the warm-up histogram before ready, then the service's. */
  LatencyHistogram latency() {
    return metrics.answerSeconds;
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
    String path = path(uri);
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
        metrics.status(200);
        ByteBuf out = head(ctx, req.protocolVersion(), 200);
        out.writeBytes(HTML).writeBytes(CachedFile.field("content-length", Integer.toString(page.length)));
        end(out, req.protocolVersion(), keepAlive);
        if (!head) {
          out.writeBytes(page);
        }
        ctx.write(out, ctx.voidPromise());
      }
    }
  }

  /**
   * The path of a request target, as a Vert.x server takes it: the origin form's up to the query;
   * the absolute form's after its authority ({@code /} when it has none); anything else as it is,
   * which {@link RequestPath} refuses.
   */
  static String path(String uri) {
    int start = 0;
    if (!uri.isEmpty() && uri.charAt(0) != '/') {
      int scheme = uri.indexOf("://");
      if (scheme >= 0) {
        start = uri.indexOf('/', scheme + 3);
        if (start < 0) {
          return "/";
        }
      }
    }
    int query = uri.indexOf('?', start);
    return uri.substring(start, query < 0 ? uri.length() : query);
  }

  private void serve(ChannelHandlerContext ctx, HttpRequest req, CachedFile file, boolean head, boolean keepAlive) {
    HttpHeaders h = req.headers();
    CachedFile rep = file;
    if (file.gzip != null && AcceptEncoding.allowsGzip(h.get(HttpHeaderNames.ACCEPT_ENCODING))) {
      rep = file.gzip;
    }
    if (rep.fields == null) {
      rep.fields = fields(rep, rep != file, file.gzip != null);
    }
    HttpVersion version = req.protocolVersion();
    Precondition precondition = Precondition.of(h.get(HttpHeaderNames.IF_UNMODIFIED_SINCE),
        h.get(HttpHeaderNames.IF_NONE_MATCH), h.get(HttpHeaderNames.IF_MODIFIED_SINCE), rep.etag,
        rep.modifiedSeconds);
    if (precondition == Precondition.FAILED) {
      metrics.status(412);
      ByteBuf out = head(ctx, version, 412).writeBytes(rep.fields).writeBytes(NO_BODY);
      ctx.write(end(out, version, keepAlive), ctx.voidPromise());
      return;
    }
    if (precondition == Precondition.NOT_MODIFIED) {
      metrics.status(304);
      ByteBuf out = head(ctx, version, 304).writeBytes(rep.fields);
      ctx.write(end(out, version, keepAlive), ctx.voidPromise());
      return;
    }
    long offset = 0;
    long length = rep.size;
    String range = h.get(HttpHeaderNames.RANGE);
    long[] r = range == null ? null : ByteRange.of(range, h.get(HttpHeaderNames.IF_RANGE), rep.size, rep.etag,
        rep.modifiedSeconds);
    ByteBuf out;
    if (r == ByteRange.UNSATISFIABLE) {
      metrics.status(416);
      out = head(ctx, version, 416).writeBytes(rep.fields)
          .writeBytes(CachedFile.field("content-range", "bytes */" + rep.size)).writeBytes(NO_BODY);
      ctx.write(end(out, version, keepAlive), ctx.voidPromise());
      return;
    }
    if (r != null) {
      offset = r[0];
      length = r[1] - r[0] + 1;
      metrics.status(206);
      out = head(ctx, version, 206).writeBytes(rep.typeField).writeBytes(rep.fields)
          .writeBytes(CachedFile.field("content-range", "bytes " + r[0] + "-" + r[1] + "/" + rep.size))
          .writeBytes(CachedFile.field("content-length", Long.toString(length)));
    } else {
      metrics.status(200);
      out = head(ctx, version, 200).writeBytes(rep.typeField).writeBytes(rep.fields).writeBytes(rep.lengthField);
    }
    end(out, version, keepAlive);
    if (head || length == 0) {
      ctx.write(out, ctx.voidPromise());
      return;
    }
    metrics.bodyBytes += length;
    if (rep.body != null) {
      // Head and body leave in one writev at the flush, where sendfile takes a writev and a sendfile
      // (static-server README, "What keeps a request cheap", says how to measure the difference).
      metrics.copiedBytes += length;
      ctx.write(out, ctx.voidPromise());
      ctx.write(rep.body.slice((int) offset, (int) length), ctx.voidPromise());
    } else if (sendfile) {
      metrics.sendfileBytes += length;
      ctx.write(out, ctx.voidPromise());
      // Opened when the kernel is asked to send it, closed once sent. If the file went away since
      // it was checked, the answer cannot be finished: the write fails and the connection is cut
      // rather than the client left waiting for a body.
      ctx.write(new DefaultFileRegion(rep.path.toFile(), offset, length), ctx.voidPromise());
    } else {
      metrics.copiedBytes += length;
      ctx.write(out, ctx.voidPromise());
      copy(ctx, rep.path, offset, length);
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

  /** The fields of every answer with this representation, but its type and length. */
  private byte[] fields(CachedFile rep, boolean gzip, boolean hasGzip) {
    StringBuilder s = new StringBuilder();
    s.append("etag: ").append(rep.etag).append("\r\n");
    s.append("last-modified: ").append(HttpDates.format(rep.modifiedMillis)).append("\r\n");
    byte[] start = s.toString().getBytes(StandardCharsets.ISO_8859_1);
    int n = start.length + ACCEPT_RANGES.length + (gzip ? GZIP.length : 0) + (hasGzip ? VARY.length : 0)
        + (cacheControl == null ? 0 : cacheControl.length);
    byte[] all = new byte[n];
    int at = 0;
    for (byte[] part : new byte[][] {start, ACCEPT_RANGES, gzip ? GZIP : null, hasGzip ? VARY : null, cacheControl}) {
      if (part != null) {
        System.arraycopy(part, 0, all, at, part.length);
        at += part.length;
      }
    }
    return all;
  }

  private void error(ChannelHandlerContext ctx, HttpRequest req, int status, byte[] field, ByteBuf body,
      boolean keepAlive) {
    metrics.status(status);
    HttpVersion version = req.protocolVersion();
    ByteBuf out = head(ctx, version, status);
    if (field != null) {
      out.writeBytes(field);
    }
    if (body == null) {
      out.writeBytes(NO_BODY);
    } else {
      out.writeBytes(TEXT).writeBytes(CachedFile.field("content-length", Integer.toString(body.readableBytes())));
    }
    end(out, version, keepAlive);
    if (body != null && req.method() != HttpMethod.HEAD) {
      out.writeBytes(body, body.readerIndex(), body.readableBytes());
    }
    ctx.write(out, ctx.voidPromise());
  }

  /** A buffer holding the status line, {@code server} and {@code date}. */
  private ByteBuf head(ChannelHandlerContext ctx, HttpVersion version, int status) {
    ByteBuf out = ctx.alloc().directBuffer(512);
    return out.writeBytes(STATUS_LINES[version == HttpVersion.HTTP_1_0 ? 0 : 1][status]).writeBytes(serverAndDate);
  }

  /**
   * Ends the head: {@code connection: close} on a last answer, {@code connection: keep-alive} on an
   * HTTP/1.0 answer that is not (1.0 closes by default, 1.1 keeps alive), then the empty line.
   */
  private static ByteBuf end(ByteBuf out, HttpVersion version, boolean keepAlive) {
    if (!keepAlive) {
      out.writeBytes(CLOSE);
    } else if (version == HttpVersion.HTTP_1_0) {
      out.writeBytes(KEEP_ALIVE);
    }
    return out.writeBytes(CRLF);
  }
}
