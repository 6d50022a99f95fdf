package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command run as given, its output kept and appended to its log. */
class ServiceProcessTest {

  @Test
  void execRunsTheCommandAsGivenAndKeepsItsOutputInTheLogToo(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("peer.log"), "an earlier run\n");
    ServiceProcess p = ServiceProcess.exec(
        List.of("sh", "-c", "echo \"$# $*\"; echo to stderr >&2", "sh", "--port", "7"), dir.resolve("peer.log"));
    assertThat(p.awaitExit(Duration.ofSeconds(10))).isZero();
    assertThat(p.output()).isEqualTo("2 --port 7\nto stderr"); // no --warmup added
    assertThat(Files.readString(dir.resolve("peer.log"))).isEqualTo("an earlier run\n2 --port 7\nto stderr\n");
  }
}
