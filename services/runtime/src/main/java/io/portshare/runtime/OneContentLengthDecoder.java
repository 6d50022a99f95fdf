package io.portshare.runtime;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.util.AsciiString;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

/**
 * Vert.x's HTTP/1.x request decoder, refusing a request head with more than one Content-Length
 * line whatever its version. Netty refuses them in HTTP/1.1; in HTTP/1.0 it keeps the first value
 * and drops the others before any handler sees the head, so a request whose lengths disagree
 * (RFC 9112 section 6.3: the framing is invalid, answer 400 and close) would be served. The head is
 * refused where and as Netty refuses several lengths in HTTP/1.1: once it is whole, with a failed
 * decoder result, the rest of the connection's bytes skipped.
 */
final class OneContentLengthDecoder extends VertxHttpRequestDecoder {

  /** Content-Length lines in the head being read. */
  private int contentLengths;

  OneContentLengthDecoder(HttpServerOptions options) {
    super(options);
  }

  @Override
  protected HttpMessage createMessage(String[] initialLine) {
    contentLengths = 0;
    return super.createMessage(initialLine);
  }

  @Override
  protected AsciiString splitHeaderName(byte[] sb, int start, int length) {
    AsciiString name = super.splitHeaderName(sb, start, length);
    if (name.length() == HttpHeaderNames.CONTENT_LENGTH.length()
        && name.contentEqualsIgnoreCase(HttpHeaderNames.CONTENT_LENGTH)) {
      contentLengths++;
    }
    return name;
  }

  /**
   * The decoder's last call once the whole head is read and its length worked out, inside the
   * guard that turns a throw into a failed head: where Netty refuses several lengths in HTTP/1.1,
   * so a head too big is still 431 first, whatever its version.
   */
  @Override
  protected boolean isContentAlwaysEmpty(HttpMessage msg) {
    if (contentLengths > 1) {
      throw new IllegalArgumentException("more than one Content-Length line");
    }
    return super.isContentAlwaysEmpty(msg);
  }
}
