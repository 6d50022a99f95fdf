package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad flags of {@code portshare-bench static} exit 2 with one line naming the flag and value, before anything starts. */
class StaticCommandArgsTest {

  private static String[] run(String... args) {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      int code = BenchMain.execute(args);
      return new String[] {Integer.toString(code), captured.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setErr(err);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--paths|a.txt|--paths",
      "--connection|sometimes|--connection",
      "--rounds|0|--rounds",
      "--duration|500ms|--duration",
      "--big-file|100k.bin|--big-file",
      "--nginx-port|18082|--nginx-port",
      "--nginx-port|18079|--nginx-port",
      "--server-jar|no/such.jar|no/such.jar"})
  void badValuesExitTwoNamingTheFlag(String flag, String value, String named) {
    String[] r = flag.equals("--server-jar") ? run("static", flag, value) : run("static", flag, value, "--server-jar", "pom.xml");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1].strip().lines()).hasSize(1);
    assertThat(r[1]).contains(named);
  }
}
