package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension the tests start services with: a test's runtimes stop after it, the class's after the class. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RuntimesTest {

  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime forClass;
  static ServiceRuntime forFirstTest;

  @BeforeAll
  static void start() {
    forClass = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1");
  }

  @Test
  @Order(1)
  void aRuntimeStartedInATestServesDuringIt() {
    forFirstTest = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1");

    assertThat(accepts(forFirstTest.port())).isTrue();
  }

  @Test
  @Order(2)
  void isStoppedAfterThatTestWhileTheClassRuntimeServesOn() {
    assertThat(forFirstTest).as("the first test ran").isNotNull();
    assertThat(accepts(forFirstTest.port())).as("the first test's runtime").isFalse();
    assertThat(accepts(forFirstTest.adminPort())).as("the first test's admin server").isFalse();
    assertThat(accepts(forClass.port())).as("the class's runtime").isTrue();
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
