package io.portshare.statics;

/** Every {@link MaxConnectionAgeTest} again with {@code --engine vertx}. */
class MaxConnectionAgeOnVertxTest extends MaxConnectionAgeTest {

  @Override
  String engine() {
    return "vertx";
  }
}
