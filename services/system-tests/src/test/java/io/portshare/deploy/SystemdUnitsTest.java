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
    assertThat(verify(socket0, unit0)).as("systemd-analyze verify").isEmpty();
  }

  /** The shared drop-in directories, copied into {@code target} as they are installed beside the units. */
  static void copyDropIns(Path target) throws IOException {
    for (String d : List.of("portshare-.service.d", "portshare-.socket.d")) {
      Files.createDirectories(target.resolve(d));
      Files.copy(UNITS.resolve(d).resolve("portshare.conf"), target.resolve(d).resolve("portshare.conf"));
    }
  }

  /** What systemd-analyze says about the units' own lines (it also reports the host's, which are not ours). */
  static List<String> verify(Path... units) throws IOException, InterruptedException {
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
