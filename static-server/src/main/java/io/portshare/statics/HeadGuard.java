package io.portshare.statics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.portshare.runtime.LingeringClose;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Refuses, in HTTP/1.1 and with a close, the request heads the decoder lets through but a server
 * must not serve. Sits just after the {@link RequestDecoder}, so it sees each head as the decoder
 * made it:
 * <ul>
 *   <li>a head the decoder could not read: 414 (request line over --max-uri), 431 (head over
 *       --max-header-size), else 400;
 *   <li>a version other than HTTP/1.0 and 1.1: 505 for {@code HTTP/d.d}, 400 for anything else,
 *       {@code http/1.1} included (the name is case-sensitive);
 *   <li>what RFC 9112 says a server must answer 400: an HTTP/1.1 request with no {@code Host},
 *       several, or one that is no host (section 3.2), a {@code Transfer-Encoding} whose last coding is not chunked
 *       (section 6.3), a field with an empty name (section 5.1) or a control byte in its value
 *       (RFC 9110 section 5.5), a Content-Length that is not one
 *       number (section 6.3; the decoder checks it in HTTP/1.1 only).
 * </ul>
 * The checks scan the bytes once each; no regular expression runs per request.
 */
final class HeadGuard extends ChannelInboundHandlerAdapter {

  private final StaticMetrics metrics;
  private boolean rejected;

  HeadGuard(StaticMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (rejected) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (!(msg instanceof HttpRequest) && msg instanceof HttpContent && ((HttpContent) msg).decoderResult().isFailure()) {
      // A malformed body (a bad chunk size) after a head that was fine: the answer to that head may
      // be written already but not flushed. Read no more; flush what is written, then close.
      rejected = true;
      ReferenceCountUtil.release(msg);
      ctx.channel().config().setAutoRead(false);
      ctx.channel().eventLoop().execute(() -> ctx.writeAndFlush(Unpooled.EMPTY_BUFFER)
          .addListener(ChannelFutureListener.CLOSE));
      return;
    }
    if (msg instanceof HttpRequest) {
      HttpResponseStatus refusal = refusal((HttpRequest) msg);
      if (refusal != null) {
        rejected = true;
        ReferenceCountUtil.release(msg);
        reject(ctx, refusal);
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }

  private HttpResponseStatus refusal(HttpRequest req) {
    if (req.decoderResult().isFailure()) {
      Throwable cause = req.decoderResult().cause();
      return cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
          : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
          : HttpResponseStatus.BAD_REQUEST;
    }
    HttpHeaders h = req.headers();
    int lengths = 0;
    int hosts = 0;
    CharSequence host = null;
    CharSequence codings = null;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> i = h.iteratorCharSequence(); i.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> field = i.next();
      CharSequence name = field.getKey();
      CharSequence value = field.getValue();
      if (name.length() == 0 || !fieldValue(value)) {
        return HttpResponseStatus.BAD_REQUEST; // as malformed as the lines the decoder refuses
      }
      if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) {
        // The decoder checks Content-Length in HTTP/1.1 only; in HTTP/1.0 a bad one framed the body too.
        if (++lengths > 1 || !length(value)) {
          return HttpResponseStatus.BAD_REQUEST;
        }
      } else if (HttpHeaderNames.HOST.contentEqualsIgnoreCase(name)) {
        hosts++;
        host = value;
      } else if (HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name)) {
        codings = value;
      }
    }
    HttpVersion v = req.protocolVersion();
    if (v != HttpVersion.HTTP_1_1 && v != HttpVersion.HTTP_1_0) {
      metrics.badVersions++;
      boolean http = httpVersion(v.text()) && !(v.majorVersion() == 1 && v.minorVersion() <= 1);
      return http ? HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED : HttpResponseStatus.BAD_REQUEST;
    }
    if (v == HttpVersion.HTTP_1_1 && (hosts != 1 || !host(host))) {
      return HttpResponseStatus.BAD_REQUEST;
    }
    if (codings != null && !lastCodingIsChunked(codings)) {
      return HttpResponseStatus.BAD_REQUEST;
    }
    return null;
  }

  /** HTTP-version as RFC 9112 section 2.3 has it: {@code HTTP/d.d} (the decoder upper-cases what it read). */
  static boolean httpVersion(String v) {
    return v.length() == 8 && v.startsWith("HTTP/") && digit(v.charAt(5)) && v.charAt(6) == '.' && digit(v.charAt(7));
  }

  /** A field value (RFC 9110 section 5.5): no control byte but HTAB, so no NUL, CR or LF. */
  static boolean fieldValue(CharSequence value) {
    for (int i = 0, n = value.length(); i < n; i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
        return false;
      }
    }
    return true;
  }

  /** One to eighteen digits: a Content-Length a long holds. */
  static boolean length(CharSequence value) {
    int n = value.length();
    if (n == 0 || n > 18) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (!digit(value.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * uri-host [":" port] (RFC 9112 section 3.2, RFC 3986): an IP literal in brackets or a reg-name
   * (unreserved, pct-encoded and sub-delims bytes), then an optional colon and digits; may be empty.
   */
  static boolean host(CharSequence value) {
    int n = value.length();
    int i = 0;
    if (n > 0 && value.charAt(0) == '[') {
      for (i = 1; i < n && value.charAt(i) != ']'; i++) {
        char c = value.charAt(i);
        if (!(digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.')) {
          return false;
        }
      }
      if (i >= n || i == 1) {
        return false;
      }
      i++; // past the ']'
    } else {
      while (i < n && regName(value.charAt(i))) {
        i++;
      }
    }
    if (i < n && value.charAt(i) == ':') {
      for (i++; i < n; i++) {
        if (!digit(value.charAt(i))) {
          return false;
        }
      }
    }
    return i == n;
  }

  private static boolean regName(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c) || "-._~%!$&'()*+,;=".indexOf(c) >= 0;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Whether the last of the comma-separated codings is {@code chunked}, spaces around it allowed. */
  static boolean lastCodingIsChunked(CharSequence value) {
    int end = value.length();
    while (end > 0 && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
      end--;
    }
    int start = end;
    while (start > 0 && value.charAt(start - 1) != ',') {
      start--;
    }
    while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
      start++;
    }
    return end - start == 7 && "chunked".regionMatches(true, 0, value.subSequence(start, end).toString(), 0, 7);
  }

  private void reject(ChannelHandlerContext ctx, HttpResponseStatus status) {
    metrics.status(status.code());
    // The answer, then FIN; the rest is read and dropped (rejected) until the client closes too.
    LingeringClose.after(ctx, answer(status));
  }

  /** The whole refusal: HTTP/1.1, the status, no body, and the close announced. */
  static ByteBuf answer(HttpResponseStatus status) {
    return Unpooled.wrappedBuffer(("HTTP/1.1 " + status + "\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
  }
}
