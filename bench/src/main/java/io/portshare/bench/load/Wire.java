package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * What the generator's connections speak: the request every transaction sends, and a reader per
 * connection that knows when a reply is whole and whether it is right. {@link #echo} is the RPC
 * protocol (the reply equals the request); {@link #http} is one GET whose answer must be a 2xx of
 * a known body length.
 */
public abstract sealed class Wire permits Wire.Echo, Wire.Http {

  /** The request bytes, read-only and unreleasable, shared by every connection. */
  abstract ByteBuf request();

  abstract ReplyReader newReader();

  /** Whether requests may go out before the previous reply arrived (RPC pipelines; HTTP/1.1 clients do not). */
  abstract boolean pipelines();

  /** Releases what {@link #request} holds, once the run is over. */
  abstract void release();

  public static Wire echo(int payloadSize) {
    return new Echo(LoadGenerator.frame(payloadSize));
  }

  /**
   * {@code GET path} to {@code host}, with {@code Connection: close} when {@code close}; the answer
   * must carry a 2xx status and a {@code Content-Length} of {@code bodyLength}.
   */
  public static Wire http(String host, String path, boolean close, long bodyLength) {
    String text = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n";
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    return new Http(Unpooled.directBuffer(bytes.length, bytes.length).writeBytes(bytes), bodyLength);
  }

  static final class Echo extends Wire {
    private final ByteBuf owned;
    private final ByteBuf frame;

    Echo(ByteBuf owned) {
      this.owned = owned;
      this.frame = Unpooled.unreleasableBuffer(owned.asReadOnly());
    }

    @Override
    ByteBuf request() {
      return frame;
    }

    @Override
    ReplyReader newReader() {
      return new EchoReader(frame);
    }

    @Override
    boolean pipelines() {
      return true;
    }

    @Override
    void release() {
      owned.release();
    }
  }

  static final class Http extends Wire {
    private final ByteBuf owned;
    private final ByteBuf request;
    private final long bodyLength;

    Http(ByteBuf owned, long bodyLength) {
      this.owned = owned;
      this.request = Unpooled.unreleasableBuffer(owned.asReadOnly());
      this.bodyLength = bodyLength;
    }

    @Override
    ByteBuf request() {
      return request;
    }

    @Override
    ReplyReader newReader() {
      return new HttpReader(bodyLength);
    }

    @Override
    boolean pipelines() {
      return false;
    }

    @Override
    void release() {
      owned.release();
    }
  }
}
