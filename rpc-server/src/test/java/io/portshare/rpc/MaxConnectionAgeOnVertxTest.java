package io.portshare.rpc;

import java.util.List;

/** Every {@link MaxConnectionAgeTest} again with {@code --engine vertx}: a Vert.x {@code NetServer}, a {@code NetSocket} per connection. */
class MaxConnectionAgeOnVertxTest extends MaxConnectionAgeTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }
}
