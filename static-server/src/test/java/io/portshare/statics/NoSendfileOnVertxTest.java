package io.portshare.statics;

import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/** Every {@link NoSendfileTest} again with {@code --engine vertx}. */
class NoSendfileOnVertxTest extends NoSendfileTest {

  @BeforeAll
  static void start() throws IOException {
    startWith("vertx");
  }
}
