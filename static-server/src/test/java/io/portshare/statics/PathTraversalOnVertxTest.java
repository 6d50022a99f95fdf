package io.portshare.statics;

import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/** Every {@link PathTraversalTest} again with {@code --engine vertx}. */
class PathTraversalOnVertxTest extends PathTraversalTest {

  @BeforeAll
  static void start() throws IOException {
    startWith("vertx");
  }
}
