package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.kit.Ci;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * deploy/systemd: each service unit comes with its socket unit (one SO_REUSEPORT socket per instance,
 * on the port the service expects); what every service's units share is one drop-in per unit type
 * ({@code portshare-.service.d}, {@code portshare-.socket.d}), and systemd's own parser, reading the
 * units with those drop-ins as an installation would, finds nothing to complain about.
 */
class SystemdUnitsTest {

  private static final Path UNITS = Jars.ROOT.resolve("deploy/systemd");

  @TempDir
  Path dir;

  @ParameterizedTest(name = "portshare-{0}@")
  @CsvSource({"rpc, 9090", "static, 8080"})
  void theSocketUnitHoldsOneReuseportSocketOnTheServicePortAndTheServiceRequiresIt(String service, int port)
      throws Exception {
    String socket = Files.readString(UNITS.resolve("portshare-" + service + "@.socket"));
    String unit = Files.readString(UNITS.resolve("portshare-" + service + "@.service"));
    String sharedSocket = Files.readString(UNITS.resolve("portshare-.socket.d/portshare.conf"));
    String sharedUnit = Files.readString(UNITS.resolve("portshare-.service.d/portshare.conf"));

    assertThat(socket).contains("\nListenStream=" + port + "\n");
    assertThat(sharedSocket).contains("\nReusePort=yes\n", "\nAccept=no\n").doesNotContain("ListenStream");
    assertThat(unit).contains("\nEnvironment=PORTSHARE_PORT=" + port + "\n");
    // %p is the unit's name before the "@": portshare-rpc@0.service requires portshare-rpc@0.socket.
    assertThat(sharedUnit).contains("PORTSHARE_INSTANCES=1 ", "\nRequires=%p@%i.socket\n",
        "/opt/portshare/portshare-%j-server.jar", "--admin-port $$(($$PORTSHARE_PORT + 1 + %i))");
    assertThat(sharedUnit).containsPattern("\nAfter=.*%p@%i\\.socket");

    // systemd-analyze reads instances, not templates: verify instance 0, next to the shared drop-ins
    // (without them the service would have no ExecStart, which it reports).
    copyDropIns(dir);
    Path socket0 = Files.writeString(dir.resolve("portshare-" + service + "@0.socket"), socket);
    Path unit0 = Files.writeString(dir.resolve("portshare-" + service + "@0.service"), unit);
    verify(socket0, unit0);
  }

  /** The check itself fails where systemd would: the service instance without its drop-in has no ExecStart. */
  @Test
  void aUnitSystemdRefusesFailsTheCheck() throws Exception {
    Path socket0 = Files.copy(UNITS.resolve("portshare-rpc@.socket"), dir.resolve("portshare-rpc@0.socket"));
    Path unit0 = Files.copy(UNITS.resolve("portshare-rpc@.service"), dir.resolve("portshare-rpc@0.service"));
    assertThatThrownBy(() -> verify(socket0, unit0)).isInstanceOf(AssertionError.class)
        .hasMessageContaining("portshare-rpc@0.service").hasMessageContaining("no ExecStart");
  }

  /** The shared drop-in directories, copied into {@code target} as they are installed beside the units. */
  static void copyDropIns(Path target) throws IOException {
    for (String d : List.of("portshare-.service.d", "portshare-.socket.d")) {
      Files.createDirectories(target.resolve(d));
      Files.copy(UNITS.resolve(d).resolve("portshare.conf"), target.resolve(d).resolve("portshare.conf"));
    }
  }

  /**
   * systemd-analyze verify reads the units as systemd would: it must exit 0 and say nothing about
   * them (it may report the host's own units, which are not ours). A systemd-analyze that cannot run
   * fails the test as well; missing, it skips it locally and fails it in CI.
   */
  static void verify(Path... units) throws IOException, InterruptedException {
    Ci.require(Jars.commandWorks("systemd-analyze", "--version"),
        "systemd-analyze is not installed (Debian's systemd package; .ci/run installs it): units not verified");
    List<String> cmd = new ArrayList<>(List.of("systemd-analyze", "verify", "--man=no"));
    for (Path u : units) {
      cmd.add(u.toString());
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("systemd-analyze verify ended").isTrue();
    assertThat(p.exitValue()).as("systemd-analyze verify's exit status; it said:%n%s", out).isZero();
    List<String> ours = out.lines().filter(l -> l.contains("portshare-")).toList();
    assertThat(ours).as("what systemd-analyze verify says about the units").isEmpty();
  }
}
