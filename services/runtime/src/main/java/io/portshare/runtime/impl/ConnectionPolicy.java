package io.portshare.runtime.impl;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code --max-connection-age} for the HTTP connections of one Vert.x server the runtime listens
 * with, as the own engines apply it: the first answer on a connection past its (jittered) lifetime
 * says {@code Connection: close}, and the connection closes once that answer is written, between two
 * requests, so no request is lost to the close. Each connection's end of life is noted when it is
 * made and looked up per request, on the server's event loop, only when an age is set.
 */
final class ConnectionPolicy {

  private final Supplier<Duration> lifetime;
  /** Each open connection's end of life in System.nanoTime() terms. Confined to the server's event loop. */
  private final Map<HttpConnection, Long> closeAt = new HashMap<>();

  ConnectionPolicy(Supplier<Duration> lifetime) {
    this.lifetime = lifetime;
  }

  /** Called on the connection's event loop when it is made. */
  void born(HttpConnection connection) {
    closeAt.put(connection, System.nanoTime() + lifetime.get().toNanos());
    connection.closeHandler(v -> closeAt.remove(connection));
  }

  /** The service's request handler, behind the age check. */
  Handler<HttpServerRequest> requests(Handler<HttpServerRequest> service) {
    return request -> {
      Long end = closeAt.get(request.connection());
      if (end != null && System.nanoTime() - end >= 0) {
        closeAfterAnswer(request);
      }
      service.handle(request);
    };
  }

  private static void closeAfterAnswer(HttpServerRequest request) {
    HttpServerResponse response = request.response();
    response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    // Once the answer's last byte is written; a service's own bodyEndHandler set later replaces this one,
    // and the connection then lives on until its idle timeout or the drain.
    response.bodyEndHandler(v -> request.connection().close());
  }
}
