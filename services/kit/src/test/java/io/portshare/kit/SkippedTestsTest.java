package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI skip check on reports as Surefire 3.5 writes them for JUnit 5 (copied from real runs, stacks cut). */
class SkippedTestsTest {

  /** A skipped method, a parameterized case skipped, one that ran, and a nested class's skip. */
  static final String SOME_SKIPPED = """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuite name="io.portshare.x.ProbeTest" time="3.049" tests="0" errors="0" skipped="0" failures="0">
        <properties>
        </properties>
        <testcase name="m" classname="io.portshare.x.ProbeTest" time="0.0">
          <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: needs a thing
      \tat org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:316)
      \tat io.portshare.x.ProbeTest.m(ProbeTest.java:6)
      ]]></skipped>
        </testcase>
        <testcase name="p(String)[1]" classname="io.portshare.x.ProbeTest" time="0.447"/>
        <testcase name="p(String)[2]" classname="io.portshare.x.ProbeTest" time="0.0">
          <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: io_uring allowed here
      \tat io.portshare.x.ProbeTest.p(ProbeTest.java:7)
      ]]></skipped>
        </testcase>
        <testcase name="n" classname="io.portshare.x.ProbeTest$Inner" time="0.0">
          <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: inner abort
      \tat io.portshare.x.ProbeTest$Inner.n(ProbeTest.java:8)
      ]]></skipped>
        </testcase>
      </testsuite>
      """;

  /** What an assumption in {@code @BeforeAll} leaves: no test case, every count zero. */
  static final String CLASS_SKIPPED = """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuite name="io.portshare.x.AllProbeTest" time="0.48" tests="0" errors="0" skipped="0" failures="0">
        <properties>
        </properties>
      </testsuite>
      """;

  static final String NONE_SKIPPED = """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuite name="io.portshare.x.FineTest" tests="1" errors="0" skipped="0" failures="0">
        <testcase name="ok" classname="io.portshare.x.FineTest" time="0.1"/>
        <testcase name="old" classname="io.portshare.x.FineTest" time="0.0"><skipped message="disabled for now"/></testcase>
      </testsuite>
      """;

  @TempDir
  Path dir;

  @Test
  void readsEachSkipWithTheFirstLineOfItsReason() throws Exception {
    assertThat(SkippedTests.read(write("a/target/surefire-reports/TEST-p.xml", SOME_SKIPPED))).containsExactly(
        new SkippedTests.Skip("io.portshare.x.ProbeTest#m", "needs a thing"),
        new SkippedTests.Skip("io.portshare.x.ProbeTest#p(String)[2]", "io_uring allowed here"),
        new SkippedTests.Skip("io.portshare.x.ProbeTest$Inner#n", "inner abort"));
    assertThat(SkippedTests.read(write("b/target/surefire-reports/TEST-f.xml", NONE_SKIPPED)))
        .containsExactly(new SkippedTests.Skip("io.portshare.x.FineTest#old", "disabled for now"));
  }

  @Test
  void aClassThatRanNoTestIsASkipOfTheWholeClass() throws Exception {
    assertThat(SkippedTests.read(write("a/target/surefire-reports/TEST-a.xml", CLASS_SKIPPED)))
        .containsExactly(new SkippedTests.Skip("io.portshare.x.AllProbeTest", SkippedTests.NOTHING_RAN));
  }

  @Test
  void findsTheReportsOfEveryModuleNestedOrNotAndNothingElse() throws Exception {
    Path a = write("bench/target/surefire-reports/TEST-a.xml", NONE_SKIPPED);
    Path b = write("services/system-tests/target/failsafe-reports/TEST-b.xml", NONE_SKIPPED);
    Path c = write("services/runtime/target/surefire-reports/TEST-c.xml", NONE_SKIPPED);
    Path d = write("services/runtime/target/surefire-reports/netty-channel/TEST-c.xml", SOME_SKIPPED);
    write("bench/target/surefire-reports/a.txt", "Tests run: 1");
    write("bench/target/surefire-reports/one/two/TEST-too-deep.xml", SOME_SKIPPED);
    write("bench/target/other/TEST-stale.xml", SOME_SKIPPED);
    write(".git/target/surefire-reports/TEST-x.xml", SOME_SKIPPED);
    assertThat(SkippedTests.reports(dir)).containsExactlyInAnyOrder(a, b, c, d);
  }

  @Test
  void passesOnlyWhenEverySkipIsListedWithItsReason() throws Exception {
    List<Path> reports = List.of(write("a/target/surefire-reports/TEST-p.xml", SOME_SKIPPED),
        write("a/target/surefire-reports/TEST-a.xml", CLASS_SKIPPED));
    List<SkippedTests.Expected> all = SkippedTests.parseExpected(List.of(
        "# test | reason | condition",
        "io.portshare.x.ProbeTest#m | needs a thing | a thing is optional",
        "io.portshare.x.ProbeTest#p | io_uring allowed | the kernel refuses io_uring; the fallback is tested",
        "io.portshare.x.ProbeTest$Inner | abort | nested",
        "io.portshare.x.AllProbeTest | no test of the class ran | known"));
    assertThat(run(reports, all)).startsWith("0\n").contains("skipped tests: 4 in 2 reports, 0 unexpected")
        .contains("the kernel refuses io_uring; the fallback is tested").doesNotContain("UNEXPECTED");

    // The same test skipped for another reason is not the listed skip.
    List<SkippedTests.Expected> otherReason = SkippedTests.parseExpected(List.of(
        "io.portshare.x.ProbeTest#m | needs another thing | a thing is optional",
        "io.portshare.x.ProbeTest#p | io_uring allowed | known",
        "io.portshare.x.ProbeTest$Inner | abort | nested",
        "io.portshare.x.AllProbeTest | no test | known"));
    assertThat(run(reports, otherReason)).startsWith("1\n").contains("1 unexpected")
        .containsPattern("UNEXPECTED +io.portshare.x.ProbeTest#m +needs a thing");
    // A method's name names that method only, not one that starts the same.
    assertThat(run(reports, SkippedTests.parseExpected(List.of(
        "io.portshare.x.ProbeTest#m | needs a thing | a",
        "io.portshare.x.ProbeTest#pp | io_uring allowed | b",
        "io.portshare.x.ProbeTest$Inner | abort | c",
        "io.portshare.x.AllProbeTest | no test | d")))).startsWith("1\n")
        .containsPattern("UNEXPECTED +io.portshare.x.ProbeTest#p\\(String\\)\\[2\\]");
  }

  @Test
  void runsOnAFallbackAreListedFromEveryModuleAndOnlyFromThere() throws Exception {
    write("services/runtime/target/transport-fallbacks/io.portshare.runtime.net.PinnedModeTest.txt",
        "ran on epoll: io_uring refused (seccomp)\nran on epoll: io_uring refused (seccomp)\n");
    write("static-server/target/transport-fallbacks/io.portshare.statics.StaticServerOnIoUringTest.txt",
        "ran on epoll: io_uring refused (seccomp)\n");
    write("bench/target/other/transport-fallbacks/io.portshare.x.StaleTest.txt", "ran on epoll\n");
    write(".git/target/transport-fallbacks/io.portshare.x.GitTest.txt", "ran on epoll\n");
    assertThat(SkippedTests.fallbacks(dir)).containsExactly(
        "io.portshare.runtime.net.PinnedModeTest | ran on epoll: io_uring refused (seccomp)",
        "io.portshare.statics.StaticServerOnIoUringTest | ran on epoll: io_uring refused (seccomp)");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    SkippedTests.printFallbacks(SkippedTests.fallbacks(dir), new PrintStream(text, true, StandardCharsets.UTF_8));
    assertThat(text.toString(StandardCharsets.UTF_8)).startsWith("tests run on a fallback: 2\n")
        .contains("  io.portshare.statics.StaticServerOnIoUringTest | ran on epoll: io_uring refused");
  }

  @Test
  void aFallbackIsRecordedUnderTheCallingTestClass() throws Exception {
    Path file = Path.of("target", Fallbacks.DIRECTORY, SkippedTestsTest.class.getName() + ".txt");
    Files.deleteIfExists(file);
    Fallbacks.record("ran on epoll: io_uring refused (a test's own line)");
    assertThat(Fallbacks.read(file)).containsExactly(
        SkippedTestsTest.class.getName() + " | ran on epoll: io_uring refused (a test's own line)");
    Files.delete(file);
  }

  @Test
  void noReportsFailsForNothingRanIsNotAPass() throws Exception {
    assertThat(run(List.of(), List.of())).startsWith("1\n").contains("no Surefire or Failsafe report found");
  }

  @Test
  void aLineWithoutItsConditionIsRefused() {
    assertThatThrownBy(() -> SkippedTests.parseExpected(List.of("", "io.portshare.x.ProbeTest#m | needs a thing")))
        .hasMessageContaining("line 2 is not 'test | reason | condition'");
    assertThatThrownBy(() -> SkippedTests.parseExpected(List.of("a | b |  ")))
        .hasMessageContaining("line 1");
  }

  @Test
  void ciIsAnyValueButEmptyFalseOrZero() {
    assertThat(Ci.active("true")).isTrue();
    assertThat(Ci.active("1")).isTrue();
    assertThat(Ci.active("yes")).isTrue();
    assertThat(Ci.active(null)).isFalse();
    assertThat(Ci.active("")).isFalse();
    assertThat(Ci.active("false")).isFalse();
    assertThat(Ci.active("FALSE")).isFalse();
    assertThat(Ci.active("0")).isFalse();
  }

  private String run(List<Path> reports, List<SkippedTests.Expected> expected) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = SkippedTests.check(reports, expected, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return status + "\n" + bytes.toString(StandardCharsets.UTF_8);
  }

  private Path write(String path, String text) throws Exception {
    Path p = dir.resolve(path);
    Files.createDirectories(p.getParent());
    return Files.writeString(p, text.strip());
  }
}
