package io.portshare.rpc;

import java.util.List;

/** Every {@link EchoWarmUpTest} again with {@code --engine vertx}: a Vert.x {@code NetServer}, a {@code NetSocket} per connection. */
class EchoWarmUpOnVertxTest extends EchoWarmUpTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }
}
