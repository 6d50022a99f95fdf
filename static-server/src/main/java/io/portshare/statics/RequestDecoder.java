package io.portshare.statics;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.portshare.runtime.Outbound;
import java.util.List;

/**
 * Netty's HTTP/1.x request decoder with --max-uri and --max-header-size, two additions, and the
 * clocks {@link OpenConnections} sweeps. It refuses a request head with more than one Content-Length
 * line whatever its version: Netty refuses them in HTTP/1.1, but in HTTP/1.0 keeps the first value
 * and drops the others before any handler sees the head, so a request whose lengths disagree
 * (RFC 9112 section 6.3: the framing is invalid, answer 400 and close) would be served. The head is
 * refused where and as Netty refuses several lengths in HTTP/1.1: once it is whole, with a failed
 * decoder result, the rest of the connection's bytes skipped.
 *
 * <p>The clocks, against slowloris and for the idle timeout: the head clock starts at the first byte
 * of a request and stops when the request has been read (the idle timeout cannot catch a trickled
 * head, since every byte resets it); an idle keep-alive connection, with no head begun, has none
 * running. Two field writes per read; no timer per connection.
 */
final class RequestDecoder extends HttpRequestDecoder {

  final Channel channel;
  /** When the head now arriving began, in epoch millis; 0 when no request is being read. */
  long headStartedAt;
  /** When the connection last read a byte (or was accepted), in epoch millis. */
  long lastReadAt;
  /** What the idle sweep last saw at the head of the unsent output, how far it was sent, and since when. */
  private Object stalledOn;
  private long stalledProgress;
  private long stalledSince;
  /** Content-Length lines in the head being read. */
  private int contentLengths;

  RequestDecoder(Channel channel, HttpDecoderConfig config) {
    super(config);
    this.channel = channel;
    this.lastReadAt = System.currentTimeMillis();
  }

  /** Netty's decoder settings with these limits, the rest its defaults; one for all of an event loop's connections. */
  static HttpDecoderConfig config(int maxUri, int maxHeaderSize) {
    return new HttpDecoderConfig().setMaxInitialLineLength(maxUri).setMaxHeaderSize(maxHeaderSize);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    long now = System.currentTimeMillis();
    lastReadAt = now;
    if (headStartedAt == 0) {
      headStartedAt = now;
    }
    super.channelRead(ctx, msg);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
    int before = out.size();
    super.decode(ctx, buffer, out);
    for (int i = before; i < out.size(); i++) {
      Object m = out.get(i);
      if (m instanceof HttpRequest || m instanceof LastHttpContent) {
        headStartedAt = 0;
      }
    }
  }

  boolean overdue(long now, long timeoutMillis) {
    long started = headStartedAt;
    return started != 0 && now - started > timeoutMillis;
  }

  /**
   * Whether output is pending and has not moved for {@code timeoutMillis}, as far as sweeps at
   * {@code now} can tell: the same message at the head of the queue, sent no further.
   */
  boolean stalled(long now, long timeoutMillis) {
    Object current = Outbound.head(channel);
    long progress = Outbound.sent(current);
    if (current != stalledOn || progress != stalledProgress) {
      stalledOn = current;
      stalledProgress = progress;
      stalledSince = now;
      return false;
    }
    return now - stalledSince > timeoutMillis;
  }

  @Override
  protected HttpMessage createMessage(String[] initialLine) throws Exception {
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
