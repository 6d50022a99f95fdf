package io.portshare.runtime;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * One exchange of a service's own protocol, as the runtime's warm-up drives it before the service
 * reports ready: a new loopback connection sends {@link #request()}, reads until
 * {@link #answered} says the answer is whole, and closes. A service says what its exchange is in
 * {@code ServiceDescriptor.warmUp}; the default there is {@link #httpGet}.
 */
public interface WarmUpExchange {

  /** The bytes a warm-up connection sends. */
  Buffer request();

  /**
   * Whether the bytes received so far are a whole, good answer. Called after each read with
   * {@code closed} false, and once more with {@code closed} true when the service closes the
   * connection; an exchange that is not answered by then counts as failed.
   */
  boolean answered(Buffer received, boolean closed);

  /**
   * {@code GET path} over HTTP/1.1 with {@code Connection: close}: answered once the service has
   * sent a status line below 500 and closed the connection.
   */
  static WarmUpExchange httpGet(String path) {
    Buffer request = Buffer.buffer(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: portshare-warm-up\r\n"
        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    return new WarmUpExchange() {
      @Override
      public Buffer request() {
        return request;
      }

      @Override
      public boolean answered(Buffer received, boolean closed) {
        // "HTTP/1.1 200": the status class is byte 9.
        return closed && received.length() > 12 && received.getString(0, 5).equals("HTTP/")
            && received.getByte(9) >= '1' && received.getByte(9) <= '4';
      }

      @Override
      public String toString() {
        return "HTTP GET " + path;
      }
    };
  }
}
