package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PinningTest {

  @Test
  void apartStartsTheServerOnItsOwnCpuAndSharedLeavesItFree() throws Exception {
    assertThat(cpusAllowed(Pinning.APART)).isEqualTo(Integer.toString(Pinning.SERVER_CPU));
    assertThat(cpusAllowed(Pinning.SHARED)).isEqualTo(cpusAllowed(List.of()));
  }

  @Test
  void anyOtherWayIsRefusedInOneLine() {
    assertThat(Pinning.parse("apart")).isEqualTo(Pinning.APART);
    assertThat(Pinning.parse("shared")).isEqualTo(Pinning.SHARED);
    assertThatThrownBy(() -> Pinning.parse("pinned"))
        .hasMessage("invalid value for --pinning: pinned; expected apart or shared");
  }

  /** The CPUs a process started behind the pinning's prefix may run on, as the kernel says. */
  private static String cpusAllowed(Pinning pinning) throws Exception {
    return cpusAllowed(pinning.serverPrefix());
  }

  private static String cpusAllowed(List<String> prefix) throws Exception {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.addAll(List.of("sleep", "5"));
    Process p = new ProcessBuilder(cmd).start();
    try {
      Path status = Path.of("/proc", Long.toString(p.pid()), "status");
      for (int i = 0; i < 100; i++) {
        // taskset sets the mask, then execs sleep in the same process: read it once sleep runs.
        if (Files.readString(status).contains("Name:\tsleep")) {
          return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
              .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElseThrow();
        }
        Thread.sleep(20);
      }
      throw new AssertionError("sleep never started behind " + prefix);
    } finally {
      p.destroy();
      p.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
