package io.portshare.rpc;

import java.util.List;

/** Every {@link ModesAndDrainTest} again with {@code --engine vertx}: a Vert.x {@code NetServer}, a {@code NetSocket} per connection. */
class ModesAndDrainOnVertxTest extends ModesAndDrainTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }
}
