package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

class RunCommandTest {

  @Command(name = "top", subcommands = Sub.class)
  static final class Top implements Runnable {
    @Override
    public void run() {}
  }

  @Command(name = "sub")
  static final class Sub implements Runnable {
    static final List<String> SEEN = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Option(names = "--paths")
    String paths;

    @Override
    public void run() {
      SEEN.add(RunCommand.of(spec));
    }
  }

  @Test
  void aSubcommandQuotesTheWholeCommandLineItRanIn() {
    Sub.SEEN.clear();
    new CommandLine(new Top()).execute("sub", "--paths", "a b,c");

    assertThat(Sub.SEEN).singleElement().satisfies(line -> assertThat(line)
        .endsWith("java -jar bench/target/portshare-bench.jar sub --paths 'a b,c'"));
  }

  @Test
  void wordsThatAShellReadsAsTheyAreStayUnquoted() {
    assertThat(RunCommand.of(List.of("rpc-matrix", "--columns", "64B|1x", "--out=/tmp/x")))
        .endsWith("portshare-bench.jar rpc-matrix --columns '64B|1x' --out=/tmp/x");
  }
}
