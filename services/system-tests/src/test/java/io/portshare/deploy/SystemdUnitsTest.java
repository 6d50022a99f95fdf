package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * deploy/systemd: each service unit comes with its socket unit (one SO_REUSEPORT socket per instance,
 * on the port the service expects), and systemd's own parser finds nothing to complain about.
 */
class SystemdUnitsTest {

  @TempDir
  Path dir;

  @ParameterizedTest(name = "portshare-{0}@")
  @CsvSource({"rpc, 9090", "static, 8080"})
  void theSocketUnitHoldsOneReuseportSocketOnTheServicePortAndTheServiceRequiresIt(String service, int port)
      throws Exception {
    String socket = Files.readString(Jars.ROOT.resolve("deploy/systemd/portshare-" + service + "@.socket"));
    String unit = Files.readString(Jars.ROOT.resolve("deploy/systemd/portshare-" + service + "@.service"));

    assertThat(socket).contains("\nListenStream=" + port + "\n", "\nReusePort=yes\n", "\nAccept=no\n");
    assertThat(unit).contains("PORTSHARE_PORT=" + port + " ", "PORTSHARE_INSTANCES=1 ",
        "\nRequires=portshare-" + service + "@%i.socket\n");
    assertThat(unit).containsPattern("\nAfter=.*portshare-" + service + "@%i\\.socket");

    // systemd-analyze reads instances, not templates: verify instance 0 of both.
    Path socket0 = Files.writeString(dir.resolve("portshare-" + service + "@0.socket"), socket);
    Path unit0 = Files.writeString(dir.resolve("portshare-" + service + "@0.service"), unit);
    assertThat(verify(socket0, unit0)).as("systemd-analyze verify").isEmpty();
  }

  /** What systemd-analyze says about the units' own lines (it also reports the host's, which are not ours). */
  private static List<String> verify(Path... units) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("systemd-analyze", "verify", "--man=no"));
    for (Path u : units) {
      cmd.add(u.toString());
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> ours = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (line.contains("portshare-")) {
        ours.add(line);
      }
    }
    return ours;
  }
}
