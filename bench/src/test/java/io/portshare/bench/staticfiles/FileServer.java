package io.portshare.bench.staticfiles;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;

/** A real HTTP server in the test's JVM (the JDK's), serving a directory on a free port of every address. */
final class FileServer implements AutoCloseable {

  private final HttpServer server;

  FileServer(Path root) throws IOException {
    server = HttpServer.create(new InetSocketAddress(0), 512);
    server.createContext("/", exchange -> {
      Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
      if (!file.startsWith(root) || !Files.isRegularFile(file)) {
        exchange.sendResponseHeaders(404, -1);
        exchange.close();
        return;
      }
      byte[] body = Files.readAllBytes(file);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
