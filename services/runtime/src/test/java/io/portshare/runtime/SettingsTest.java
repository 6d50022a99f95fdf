package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.examples.hello.HelloService;
import io.portshare.runtime.config.LogFormat;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.config.TransportSetting;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Precedence defaults < config file < PORTSHARE_* environment < flags, and the one-line errors. */
class SettingsTest {

  private static final List<Option> OPTIONS = ServiceRuntime.options(new HelloService());

  @TempDir
  Path dir;

  private Settings resolve(Map<String, String> env, String... flags) {
    return Settings.resolve(OPTIONS, List.of(flags), env);
  }

  @Test
  void defaultsApplyWhenNothingIsGiven() {
    Settings s = resolve(Map.of());

    assertThat(s.getInt("port")).isEqualTo(8000);
    assertThat(s.getInt("admin-port")).isEqualTo(8001);
    assertThat(s.getString("mode")).isEqualTo("reuseport");
    assertThat(s.getInt("instances")).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(s.getDuration("drain-timeout")).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.getString("greeting")).isEqualTo("hello");
    assertThat(s.sourceOf("port")).isEqualTo("default");
  }

  @Test
  void fileBeatsDefaultsEnvBeatsFileFlagsBeatEnv() throws Exception {
    Path yaml = Files.writeString(dir.resolve("c.yaml"), "port: 7001\ninstances: 3\nmode: shared\ngreeting: file\n");
    Map<String, String> env = Map.of("PORTSHARE_CONFIG", yaml.toString(), "PORTSHARE_INSTANCES", "5",
        "PORTSHARE_GREETING", "env");

    Settings s = resolve(env, "--greeting", "flag");

    assertThat(s.getInt("port")).isEqualTo(7001);
    assertThat(s.sourceOf("port")).isEqualTo("config file " + yaml);
    assertThat(s.getString("mode")).isEqualTo("shared");
    assertThat(s.getInt("instances")).isEqualTo(5);
    assertThat(s.sourceOf("instances")).isEqualTo("PORTSHARE_INSTANCES");
    assertThat(s.getString("greeting")).isEqualTo("flag");
    assertThat(s.sourceOf("greeting")).isEqualTo("--greeting");
  }

  @Test
  void jsonConfigFilesWorkToo() throws Exception {
    Path json = Files.writeString(dir.resolve("c.json"), "{\"port\": 7002, \"drain-timeout\": \"250ms\"}");

    Settings s = resolve(Map.of(), "--config=" + json);

    assertThat(s.getInt("port")).isEqualTo(7002);
    assertThat(s.getDuration("drain-timeout")).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void badValuesNameTheKeyTheValueAndTheSource() throws Exception {
    Path yaml = Files.writeString(dir.resolve("bad.yaml"), "mode: sideways\n");

    assertThatThrownBy(() -> resolve(Map.of(), "--instances", "many"))
        .isInstanceOf(UsageException.class)
        .hasMessage("invalid value for instances: \"many\" (from --instances); expected an integer");
    assertThatThrownBy(() -> resolve(Map.of("PORTSHARE_PORT", "70000")))
        .hasMessage("invalid value for port: \"70000\" (from PORTSHARE_PORT); expected a port number 0-65535");
    assertThatThrownBy(() -> resolve(Map.of(), "--config", yaml.toString()))
        .hasMessage("invalid value for mode: \"sideways\" (from config file " + yaml
            + "); expected one of shared|reuseport|pinned");
    assertThatThrownBy(() -> resolve(Map.of(), "--drain-timeout", "soon"))
        .hasMessageStartingWith("invalid value for drain-timeout: \"soon\"");
  }

  @Test
  void unknownFlagsKeysAndFilesAreRefused() throws Exception {
    Path yaml = Files.writeString(dir.resolve("typo.yaml"), "instanses: 2\n");
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "port: [1, 2\n");

    assertThatThrownBy(() -> resolve(Map.of(), "--prot", "1")).hasMessage("unknown option --prot (see --help)");
    assertThatThrownBy(() -> resolve(Map.of(), "--port")).hasMessage("option --port needs a value (see --help)");
    assertThatThrownBy(() -> resolve(Map.of(), "stray")).hasMessageStartingWith("unexpected argument \"stray\"");
    assertThatThrownBy(() -> resolve(Map.of(), "--config", yaml.toString()))
        .hasMessage("config file " + yaml + ": unknown key \"instanses\" (see --help)");
    assertThatThrownBy(() -> resolve(Map.of(), "--config", dir.resolve("none.yaml").toString()))
        .hasMessage("config file " + dir.resolve("none.yaml") + " does not exist");
    assertThatThrownBy(() -> resolve(Map.of(), "--config", broken.toString()))
        .hasMessageStartingWith("config file " + broken + " is not valid YAML or JSON");
  }

  @Test
  void sizesAndDurationsAcceptTheirUnits() {
    Option size = Option.size("max", "1MiB", "");
    Option duration = Option.duration("t", "10s", "");

    assertThat(size.parse("1MiB", "x")).isEqualTo(1L << 20);
    assertThat(size.parse("64k", "x")).isEqualTo(64L << 10);
    assertThat(size.parse("1024", "x")).isEqualTo(1024L);
    assertThat(duration.parse("500ms", "x")).isEqualTo(Duration.ofMillis(500));
    assertThat(duration.parse("2m", "x")).isEqualTo(Duration.ofMinutes(2));
    assertThat(duration.parse("7", "x")).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void switchesNeedNoValue() {
    Option listing = Option.flag("listing", "");
    Settings s = Settings.resolve(List.of(Option.path(Settings.CONFIG, "", ""), listing), List.of("--listing"), Map.of());

    assertThat(s.getFlag("listing")).isTrue();
    assertThat(Settings.resolve(List.of(Option.path(Settings.CONFIG, "", ""), listing), List.of(), Map.of())
        .getFlag("listing")).isFalse();
  }

  @Test
  void acceptOnEventLoopIsAnOptionInEveryForm() throws Exception {
    Path yaml = Files.writeString(dir.resolve("accept.yaml"), "accept-on-event-loop: false\n");

    assertThat(RuntimeSettings.of(resolve(Map.of())).acceptOnEventLoop()).isTrue();
    assertThat(RuntimeSettings.of(resolve(Map.of(), "--accept-on-event-loop=false")).acceptOnEventLoop()).isFalse();
    assertThat(RuntimeSettings.of(resolve(Map.of("PORTSHARE_ACCEPT_ON_EVENT_LOOP", "false"))).acceptOnEventLoop())
        .isFalse();
    assertThat(RuntimeSettings.of(resolve(Map.of(), "--config", yaml.toString())).acceptOnEventLoop()).isFalse();
    assertThat(RuntimeSettings.of(resolve(Map.of("PORTSHARE_ACCEPT_ON_EVENT_LOOP", "false"),
        "--accept-on-event-loop")).acceptOnEventLoop()).isTrue();
    assertThatThrownBy(() -> resolve(Map.of(), "--accept-on-event-loop=maybe"))
        .hasMessage("invalid value for accept-on-event-loop: \"maybe\" (from --accept-on-event-loop); "
            + "expected true or false");
  }

  @Test
  void instancesOutOfRangeNameTheirSource() {
    assertThatThrownBy(() -> RuntimeSettings.of(resolve(Map.of("PORTSHARE_INSTANCES", "0"))))
        .hasMessage("invalid value for instances: \"0\" (from PORTSHARE_INSTANCES); expected 1..4096");
  }

  @Test
  void superviseHasItsBoundInTheOptionModel() {
    assertThat(RuntimeSettings.of(resolve(Map.of(), "--supervise", "512")).supervise()).isEqualTo(512);
    assertThatThrownBy(() -> resolve(Map.of(), "--supervise", "513"))
        .hasMessage("invalid value for supervise: \"513\" (from --supervise); expected 0..512");
    assertThatThrownBy(() -> resolve(Map.of("PORTSHARE_SUPERVISE", "-1")))
        .hasMessage("invalid value for supervise: \"-1\" (from PORTSHARE_SUPERVISE); expected 0..512");
  }

  @Test
  void transportAndLogFormatAreTypedAsTheModeIs() {
    RuntimeSettings common = RuntimeSettings.of(resolve(Map.of("PORTSHARE_LOG_FORMAT", "json"), "--transport",
        "io_uring"));

    assertThat(common.transport()).isEqualTo(TransportSetting.IO_URING);
    assertThat(common.logFormat()).isEqualTo(LogFormat.JSON);
    assertThat(RuntimeSettings.of(resolve(Map.of())).transport()).isEqualTo(TransportSetting.AUTO);
    assertThatThrownBy(() -> resolve(Map.of(), "--transport", "dpdk"))
        .hasMessage("invalid value for transport: \"dpdk\" (from --transport); expected one of auto|epoll|io_uring|nio");
  }

  @Test
  void aChildOfTheSupervisorGetsItsOwnLayoutOverTheSupervisorsFlags() {
    List<String> args = new ArrayList<>(List.of("--supervise", "4", "--port", "9000", "--instances=8"));
    args.addAll(RuntimeSettings.childFlags(9000, 9101));
    RuntimeSettings child = RuntimeSettings.of(resolve(Map.of(), args.toArray(String[]::new)));

    assertThat(child.supervise()).isZero();
    assertThat(child.instances()).isEqualTo(1);
    assertThat(child.mode()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(child.port()).isEqualTo(9000);
    assertThat(child.adminPort()).isEqualTo(9101);
  }

  @Test
  void oneGrammarForDurationsAndSizes() {
    assertThat(Units.duration("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(Units.duration("3 H")).isEqualTo(Duration.ofHours(3));
    assertThat(Units.size("64KiB")).isEqualTo(64L << 10);
    assertThat(Units.size("2g")).isEqualTo(2L << 30);
    assertThatThrownBy(() -> Units.duration("PT5S")).hasMessage(
        "invalid duration \"PT5S\"; expected a duration such as 500ms, 10s, 2m");
    assertThatThrownBy(() -> Units.size("99999999999GiB")).hasMessageStartingWith("invalid size");
  }

  @Test
  void aFormattedDurationReadsBackAsItself() {
    for (String text : List.of("0s", "500ms", "1500ms", "60s", "75s", "599s", "10m", "90m", "1h", "25h")) {
      Duration d = Units.duration(text);
      assertThat(Units.format(d)).as("format of %s", text).isEqualTo(text);
      assertThat(Units.duration(Units.format(d))).isEqualTo(d);
    }
  }
}
