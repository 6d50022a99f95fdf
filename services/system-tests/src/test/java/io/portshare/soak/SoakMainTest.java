package io.portshare.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import io.portshare.kit.Repository;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's command line: picocli with the runtime's duration grammar, one line and exit 2 on bad
 * usage; the jars it runs by path or by module name.
 */
class SoakMainTest {

  private String err;

  private int run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      return SoakMain.execute(args);
    } finally {
      System.setErr(saved);
      err = bytes.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void badUsageIsOneLineAndExitTwo() {
    assertThat(run("--bogus")).isEqualTo(2);
    assertThat(err.lines().toList()).containsExactly("portshare-soak: Unknown option: '--bogus' (see --help)");

    assertThat(run("--concurrent", "0")).isEqualTo(2);
    assertThat(err.lines().toList())
        .containsExactly("portshare-soak: invalid value for --concurrent: \"0\"; expected a positive whole number (see --help)");

    assertThat(run("--scenarios", "short-connections,nap")).isEqualTo(2);
    assertThat(err).startsWith("portshare-soak: invalid value for --scenarios: \"nap\"; expected some of ");

    assertThat(run("--load-time", "soon")).isEqualTo(2);
    assertThat(err).startsWith("portshare-soak: Invalid value for option '--load-time': ")
        .contains("invalid duration \"soon\"; expected a duration such as 500ms, 10s, 2m");
    assertThat(err.lines()).hasSize(1);

    assertThat(run("--netns", "sometimes")).isEqualTo(2);
  }

  @Test
  void aJarThatIsNoServiceIsOneLineAndExitTwo() {
    assertThat(run("--rpc-jar", "no-such-service", "--root", Repository.root().toString())).isEqualTo(2);
    assertThat(err.lines().toList()).containsExactly("portshare-soak: --rpc-jar: unknown service \"no-such-service\"; "
        + "expected a service jar (path/to/my-service.jar) or a module name (rpc-server, static-server, NAME-server) (see --help)");

    assertThat(run("--static-jar", "missing/my-service.jar")).isEqualTo(2);
    assertThat(err.lines().toList())
        .containsExactly("portshare-soak: --static-jar: no service jar at missing/my-service.jar (see --help)");
  }

  /** A service by module name (NAME-server by NAME too), or any jar by its path; a module that runs no service is none. */
  @Test
  void aServiceIsAJarByPathOrAModuleByName(@TempDir Path elsewhere) throws Exception {
    Path root = Repository.root();
    Path rpc = Repository.serviceJar("rpc-server");
    assertThat(SoakConfig.serviceJar(root, "rpc-server")).isEqualTo(rpc);
    assertThat(SoakConfig.serviceJar(root, "rpc")).isEqualTo(rpc);
    Path copy = Files.copy(rpc, elsewhere.resolve("my-echo.jar"));
    assertThat(SoakConfig.serviceJar(root, copy.toString())).isEqualTo(copy);
    assertThatThrownBy(() -> SoakConfig.serviceJar(root, "bench")).hasMessageStartingWith("unknown service \"bench\"");
  }

  @Test
  void helpNamesEveryScenario() {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(SoakMain.execute("--help")).isZero();
    } finally {
      System.setOut(saved);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("--load-time=DURATION", "(default: 3s)")
        .contains(SoakMain.SCENARIOS);
  }
}
