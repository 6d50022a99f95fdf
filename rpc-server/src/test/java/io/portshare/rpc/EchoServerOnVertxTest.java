package io.portshare.rpc;

import java.util.List;

/** Every {@link EchoServerTest} again with {@code --engine vertx}: a Vert.x {@code NetServer}, a {@code NetSocket} per connection. */
class EchoServerOnVertxTest extends EchoServerTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }

  /** A {@code NetSocket} cannot half-close: closed outright once the peer is quiet (README, the engines). */
  @Override
  boolean lingersAfterFin() {
    return false;
  }
}
