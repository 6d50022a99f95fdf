package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StaticPlanTest {

  private static StaticPlan plan(int bigRounds, List<String> serverArgs) {
    return new StaticPlan(Path.of("s.jar"), List.of("-Xmx256m"), serverArgs, "reuseport", 2, 18080, "nginx",
        Path.of("t"), 18090, new Wrk("wrk", 2, 64), List.of("1k.bin", "index.html"), List.of(false, true), 3,
        Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(60),
        "100m.bin", bigRounds, 10, Path.of("tmp"), Path.of("logs"), 2);
  }

  @Test
  void ourServerRunsFromItsJarOnEveryAddressWithTheAdminPortNextToIt() {
    assertThat(StaticBench.ourCommand("java", plan(3, List.of("--memory-max", "0")), Path.of("site"), 18082,
        List.of("--no-sendfile")))
        .containsExactly("java", "-Xmx256m", "-jar", "s.jar", "--root", "site", "--host", "0.0.0.0", "--port", "18082",
            "--admin-port", "18083", "--instances", "2", "--mode", "reuseport", "--memory-max", "0", "--no-sendfile");
  }

  @Test
  void theSiteHasTheBigFileOnlyWhenItIsMeasured() {
    assertThat(plan(3, List.of()).sitePaths()).containsExactly("1k.bin", "index.html", "100m.bin");
    assertThat(plan(0, List.of()).sitePaths()).containsExactly("1k.bin", "index.html");
  }
}
