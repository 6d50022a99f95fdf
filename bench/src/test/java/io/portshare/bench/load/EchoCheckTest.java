package io.portshare.bench.load;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The check before a run against HOST:PORT, against servers that echo, answer wrongly, close, or are not there. */
class EchoCheckTest {

  @Test
  void aServerThatEchoesPasses() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      assertThat(EchoCheck.problem("127.0.0.1", server.port(), 64)).isNull();
      assertThat(EchoCheck.problem("127.0.0.1", server.port(), 0)).isNull();
    }
  }

  @Test
  void aServerThatAnswersOtherBytesIsNamed() throws Exception {
    try (EchoServer server = new EchoServer(1)) {
      assertThat(EchoCheck.problem("127.0.0.1", server.port(), 64)).contains("differs from what was sent");
    }
  }

  @Test
  void aServerThatClosesIsNamed() throws Exception {
    try (RudeServer server = new RudeServer(false)) {
      assertThat(EchoCheck.problem("127.0.0.1", server.port(), 64)).contains("connection closed");
    }
  }

  @Test
  void aPortWithNoServerIsNamed() throws Exception {
    int port = FreePorts.block(1);
    assertThat(EchoCheck.problem("127.0.0.1", port, 64)).containsIgnoringCase("refused");
  }
}
