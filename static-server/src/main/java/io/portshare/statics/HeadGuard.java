package io.portshare.statics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Refuses, in HTTP/1.1 and with a close, the request heads Vert.x would let through or answer
 * wrongly. Sits just before Vert.x's handler, so it sees each head as the decoder made it:
 * <ul>
 *   <li>a head the decoder could not read: 414 (request line over --max-uri), 431 (head over
 *       --max-header-size), else 400; Vert.x would answer with an HTTP/1.0 status line;
 *   <li>a version other than HTTP/1.0 and 1.1: 505 for {@code HTTP/d.d}, 400 for anything else,
 *       {@code http/1.1} included (the name is case-sensitive); Vert.x would echo the token;
 *   <li>what RFC 9112 says a server must answer 400: an HTTP/1.1 request with no {@code Host},
 *       several, or one that is no host (section 3.2), a {@code Transfer-Encoding} whose last coding is not chunked
 *       (section 6.3), a field with an empty name (section 5.1) or a control byte in its value
 *       (RFC 9110 section 5.5), a Content-Length that is not one
 *       number (section 6.3; the decoder checks it in HTTP/1.1 only).
 * </ul>
 */
final class HeadGuard extends ChannelInboundHandlerAdapter {

  /** HTTP-version as RFC 9112 section 2.3 has it (the decoder upper-cases what it read). */
  private static final Pattern HTTP_VERSION = Pattern.compile("HTTP/\\d\\.\\d");
  /** A field value (RFC 9110 section 5.5): no control byte but HTAB, so no NUL, CR or LF. */
  private static final Pattern FIELD_VALUE = Pattern.compile("[\\t\\x20-\\x7e\\x80-\\xff]*");
  private static final Pattern CONTENT_LENGTH = Pattern.compile("\\d{1,18}");
  /** uri-host [":" port] (RFC 9112 section 3.2, RFC 3986): a reg-name or an IP literal; may be empty. */
  private static final Pattern HOST = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9\\-._~%!$&'()*+,;=]*)(:\\d*)?");

  private static final long LINGER_MILLIS = 2000;

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
      // be written already but not flushed, and Vert.x would close at once and lose it. Read no
      // more; flush what is written, then close.
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
    for (Map.Entry<String, String> field : h) {
      if (field.getKey().isEmpty() || !FIELD_VALUE.matcher(field.getValue()).matches()) {
        return HttpResponseStatus.BAD_REQUEST; // as malformed as the lines the decoder refuses
      }
    }
    // The decoder checks Content-Length in HTTP/1.1 only; in HTTP/1.0 a bad one framed the body too.
    List<String> lengths = h.getAll(HttpHeaderNames.CONTENT_LENGTH);
    if (lengths.size() > 1 || (lengths.size() == 1 && !CONTENT_LENGTH.matcher(lengths.get(0)).matches())) {
      return HttpResponseStatus.BAD_REQUEST;
    }
    HttpVersion v = req.protocolVersion();
    if (v != HttpVersion.HTTP_1_1 && v != HttpVersion.HTTP_1_0) {
      metrics.badVersions++;
      boolean http = HTTP_VERSION.matcher(v.text()).matches() && !(v.majorVersion() == 1 && v.minorVersion() <= 1);
      return http ? HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED : HttpResponseStatus.BAD_REQUEST;
    }
    List<String> hosts = h.getAll(HttpHeaderNames.HOST);
    if (v == HttpVersion.HTTP_1_1 && (hosts.size() != 1 || !HOST.matcher(hosts.get(0)).matches())) {
      return HttpResponseStatus.BAD_REQUEST;
    }
    List<String> codings = h.getAll(HttpHeaderNames.TRANSFER_ENCODING);
    if (!codings.isEmpty() && !lastCodingIsChunked(codings.get(codings.size() - 1))) {
      return HttpResponseStatus.BAD_REQUEST;
    }
    return null;
  }

  private static boolean lastCodingIsChunked(String value) {
    String[] codings = value.split(",");
    return codings[codings.length - 1].trim().equalsIgnoreCase("chunked");
  }

  private void reject(ChannelHandlerContext ctx, HttpResponseStatus status) {
    metrics.status(status.code());
    FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
    answer.headers()
        .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO)
        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    // A lingering close, as nginx does: closing outright with the client's bytes unread would send
    // RST, which can throw the answer away before the client reads it. So: the answer, then FIN;
    // the rest read and dropped (rejected) until the client closes too, or LINGER_MILLIS pass.
    ctx.writeAndFlush(answer).addListener(f -> {
      if (f.isSuccess() && ctx.channel() instanceof DuplexChannel) {
        ((DuplexChannel) ctx.channel()).shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
      } else {
        ctx.close();
      }
    });
  }
}
