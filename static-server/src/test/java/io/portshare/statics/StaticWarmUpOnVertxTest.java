package io.portshare.statics;

/** Every {@link StaticWarmUpTest} again with {@code --engine vertx}: warm-up traffic counted apart there too. */
class StaticWarmUpOnVertxTest extends StaticWarmUpTest {

  @Override
  String engine() {
    return "vertx";
  }
}
