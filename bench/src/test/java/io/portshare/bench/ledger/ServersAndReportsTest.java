package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.bench.BenchMain;
import io.portshare.runtime.Units;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The options ledger, latency and seeds take through {@link ServersAndReports}, as users' scripts and the
 * committed reports' command lines give them: every name with its default, each command's own default JVM
 * flags, and none that one of the three did not take before they shared the mixin.
 */
class ServersAndReportsTest {

  private static final List<String> COMMANDS = List.of("ledger", "latency", "seeds");

  @Test
  void eachCommandTakesEveryOptionWithItsDefault() {
    for (String command : COMMANDS) {
      CommandSpec spec = parsed(command);
      assertThat(value(spec, "--rpc-server-jar")).as(command).isEqualTo(Path.of("rpc-server/target/portshare-rpc-server.jar"));
      assertThat(value(spec, "--static-server-jar")).as(command)
          .isEqualTo(Path.of("static-server/target/portshare-static-server.jar"));
      assertThat(value(spec, "--c-echo")).as(command).isEqualTo(Path.of("bench/peers/c-echo/echo"));
      assertThat(value(spec, "--nginx")).as(command).isNull();
      assertThat(value(spec, "--nginx-template")).as(command).isEqualTo(Path.of("bench/peers/nginx-static.conf.template"));
      assertThat(value(spec, "--wrk")).as(command).isNull();
      assertThat(value(spec, "--out")).as(command).isEqualTo(Path.of("bench-results"));
    }
  }

  @Test
  void seedsKeepsItsOwnDefaultJvmFlags() {
    assertThat(value(parsed("ledger"), "--server-jvm-options")).isEqualTo("-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError");
    assertThat(value(parsed("latency"), "--server-jvm-options")).isEqualTo("-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError");
    assertThat(value(parsed("seeds"), "--server-jvm-options")).isEqualTo("-Xmx256m -XX:+ExitOnOutOfMemoryError");
  }

  @Test
  void aValueGivenReachesTheCommand() {
    for (String command : COMMANDS) {
      CommandLine cl = commandLine();
      cl.parseArgs(command, "--out", "elsewhere", "--wrk", "wrk-4.2");
      CommandSpec spec = cl.getSubcommands().get(command).getCommandSpec();
      assertThat(value(spec, "--out")).as(command).isEqualTo(Path.of("elsewhere"));
      assertThat(value(spec, "--wrk")).as(command).isEqualTo("wrk-4.2");
    }
  }

  @Test
  void latencyTakesNoCReferenceClient() {
    // latency loads with this bench's generator alone; ledger and seeds declare --c-load beside the mixin.
    assertThatThrownBy(() -> commandLine().parseArgs("latency", "--c-load", "rpcload"))
        .isInstanceOf(CommandLine.UnmatchedArgumentException.class);
    assertThat(parsed("ledger").findOption("--c-load")).isNotNull();
    assertThat(parsed("seeds").findOption("--c-load")).isNotNull();
  }

  private static CommandLine commandLine() {
    return new CommandLine(new BenchMain()).registerConverter(Duration.class, Units::duration);
  }

  private static CommandSpec parsed(String command) {
    CommandLine cl = commandLine();
    cl.parseArgs(command);
    return cl.getSubcommands().get(command).getCommandSpec();
  }

  private static Object value(CommandSpec spec, String option) {
    return spec.findOption(option).getValue();
  }
}
