package io.portshare.statics;

import io.portshare.web.internal.CachedFile;
import io.portshare.web.internal.HttpDates;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * The head of the own engine's answers as pre-encoded bytes, TechEmpower style: the status lines
 * once, {@code server} and {@code date} once a second, a file's own fields once per cache entry,
 * so writing a head is copying arrays into one direct buffer.
 */
final class AnswerHead {

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] CLOSE = CachedFile.field("connection", "close");
  private static final byte[] KEEP_ALIVE = CachedFile.field("connection", "keep-alive");
  private static final byte[] GZIP = CachedFile.field("content-encoding", "gzip");
  private static final byte[] VARY = CachedFile.field("vary", "Accept-Encoding");
  private static final byte[] ACCEPT_RANGES = CachedFile.field("accept-ranges", "bytes");
  /** Status lines by version (0 for HTTP/1.0, 1 for 1.1) and code, for the codes answered here. */
  private static final byte[][][] STATUS_LINES = new byte[2][600][];

  static {
    for (int code : new int[] {200, 206, 301, 304, 400, 404, 405, 412, 416}) {
      String status = " " + HttpResponseStatus.valueOf(code) + "\r\n";
      STATUS_LINES[0][code] = ("HTTP/1.0" + status).getBytes(StandardCharsets.US_ASCII);
      STATUS_LINES[1][code] = ("HTTP/1.1" + status).getBytes(StandardCharsets.US_ASCII);
    }
  }

  /** {@code cache-control: ...} with its line end, or null for none. */
  private final byte[] cacheControl;
  /** {@code server} and {@code date}, pre-encoded and refreshed once a second as the fast Vert.x servers do. */
  private byte[] serverAndDate;

  /** {@code cacheControl} empty for none. */
  AnswerHead(String cacheControl, long epochMillis) {
    this.cacheControl = cacheControl.isEmpty() ? null : CachedFile.field("cache-control", cacheControl);
    tick(epochMillis);
  }

  /** The Date of heads started from now on. */
  void tick(long epochMillis) {
    serverAndDate = ("server: portshare\r\ndate: " + HttpDates.format(epochMillis) + "\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** A buffer holding the status line, {@code server} and {@code date}. */
  ByteBuf start(ChannelHandlerContext ctx, HttpVersion version, int status) {
    ByteBuf out = ctx.alloc().directBuffer(512);
    return out.writeBytes(STATUS_LINES[version == HttpVersion.HTTP_1_0 ? 0 : 1][status]).writeBytes(serverAndDate);
  }

  /**
   * Ends the head: {@code connection: close} on a last answer, {@code connection: keep-alive} on an
   * HTTP/1.0 answer that is not (1.0 closes by default, 1.1 keeps alive), then the empty line.
   */
  static ByteBuf end(ByteBuf out, HttpVersion version, boolean keepAlive) {
    if (!keepAlive) {
      out.writeBytes(CLOSE);
    } else if (version == HttpVersion.HTTP_1_0) {
      out.writeBytes(KEEP_ALIVE);
    }
    return out.writeBytes(CRLF);
  }

  /** The fields of every answer with this representation, but its type and length. */
  byte[] fields(CachedFile rep, boolean gzip, boolean hasGzip) {
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
}
