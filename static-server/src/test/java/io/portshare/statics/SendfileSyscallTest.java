package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.HttpWire;
import io.portshare.kit.ServiceProcess;
import io.portshare.kit.Strace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zero-copy as the kernel saw it, not as the server counts it: the service runs under
 * {@code strace -f -e trace=sendfile}, and the bytes sendfile(2) returned must be exactly the body
 * bytes of the large files served; with {@code --no-sendfile} sendfile(2) is never called. Under
 * {@code trace=openat}, a large file is opened once for all its answers, on either engine.
 */
class SendfileSyscallTest {

  private static final Duration START = Duration.ofSeconds(120);
  /** {@code 1234 sendfile(20, 21, [0] => [300000], 300000) = 300000}: what strace -f writes per call. */
  private static final Pattern CALL = Pattern.compile("^\\d+\\s+sendfile\\(.*\\)\\s+=\\s+(-?\\d+)", Pattern.MULTILINE);

  @TempDir
  static Path tmp;
  static Path root;
  static byte[] big;

  @BeforeAll
  static void site() throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    big = new byte[300_000]; // above --memory-max (32 KiB): answered from the file
    new Random(3).nextBytes(big);
    Files.write(root.resolve("big.bin"), big);
    Files.writeString(root.resolve("small.txt"), "small\n"); // from memory, never by sendfile
  }

  @Test
  void largeFilesAndRangesGoOutBySendfile() throws Exception {
    String trace = servedUnderStrace("sendfile.trace", "sendfile");
    List<Long> calls = calls(trace);
    assertThat(calls).as("sendfile(2) calls in:\n%s", trace).isNotEmpty().allSatisfy(n -> assertThat(n).isPositive());
    assertThat(calls.stream().mapToLong(Long::longValue).sum()).as("bytes sendfile(2) sent; trace:\n%s", trace)
        .isEqualTo(2L * big.length + 1000);
  }

  @Test
  void noSendfileNeverCallsIt() throws Exception {
    String trace = servedUnderStrace("copy.trace", "sendfile", "--no-sendfile");
    assertThat(calls(trace)).as("sendfile(2) calls with --no-sendfile:\n%s", trace).isEmpty();
  }

  /**
   * big.bin is opened once, when it is looked up, and kept open with its cache entry: its three
   * answers by sendfile (two hits) open nothing (without the kept descriptor each answer opened it).
   */
  @Test
  void aHitOpensNothing() throws Exception {
    assertOpenedOnce(servedUnderStrace("openat.trace", "openat"));
  }

  /** The same on --engine vertx: portshare-web's StaticFiles lends the kept descriptor to Vert.x's sendFile. */
  @Test
  void aHitOnTheVertxEngineOpensNothing() throws Exception {
    assertOpenedOnce(servedUnderStrace("openat-vertx.trace", "openat", "--engine", "vertx"));
  }

  private static void assertOpenedOnce(String trace) {
    Matcher m = Pattern.compile("^\\d+\\s+openat\\(.*big\\.bin\"", Pattern.MULTILINE).matcher(trace);
    int opens = 0;
    while (m.find()) {
      opens++;
    }
    assertThat(opens).as("openat(2) of big.bin for three answers; trace:\n%s", trace).isEqualTo(1);
  }

  /**
   * Serves big.bin twice, a 1000-byte range of it and small.txt, then stops, traced for {@code syscall};
   * returns strace's output.
   */
  private static String servedUnderStrace(String name, String syscall, String... extra) throws Exception {
    Ci.require(System.getProperty("os.name").startsWith("Linux"), "sendfile(2) and strace are Linux only");
    // strace is a package on any Linux (.ci/run installs it)
    String strace = Strace.unavailable();
    Ci.require(strace == null, "strace cannot run here (" + strace + "): sendfile(2) not checked by the kernel");
    Path out = tmp.resolve(name);
    List<String> flags = new ArrayList<>(List.of("--service", "static", "--port", "0", "--admin-port", "0",
        "--instances", "1", "--host", "127.0.0.1", "--root", root.toString()));
    flags.addAll(List.of(extra));
    // --seccomp-bpf: only the traced call stops the JVM's threads, so the traced server runs at nearly full speed.
    try (ServiceProcess p = ServiceProcess.launchUnder(List.of("strace", "-f", "--seccomp-bpf", "-e", "trace=" + syscall,
        "-e", "signal=none", "-o", out.toString()), Map.of(), flags.toArray(String[]::new))) {
      try {
        serveAndStop(p);
      } finally {
        // Killing strace alone would leave the traced JVM running: end whatever is left of it.
        ProcessHandle.of(p.pid()).ifPresent(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
      }
    }
    return Files.readString(out);
  }

  private static void serveAndStop(ServiceProcess p) throws Exception {
    p.awaitReady(START);
    assertThat(HttpWire.get(p.port(), "/big.bin").body()).isEqualTo(big);
    try (HttpWire c = new HttpWire(p.port())) {
      c.send("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).body()).isEqualTo(big);
      c.send("GET /big.bin HTTP/1.1\r\nHost: t\r\nRange: bytes=1000-1999\r\n\r\n");
      assertThat(c.read(false).body()).isEqualTo(Arrays.copyOfRange(big, 1000, 2000));
      c.send("GET /small.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("small\n");
    }
    // SIGTERM to the JVM that strace runs (strace itself would detach and leave it running); strace
    // then exits with its exit code, the trace written whole.
    ProcessHandle.of(p.pid()).orElseThrow().children().forEach(ProcessHandle::destroy);
    assertThat(p.awaitExit(Duration.ofSeconds(60))).as(p.output()).isZero();
  }

  private static List<Long> calls(String trace) {
    List<Long> bytes = new ArrayList<>();
    Matcher m = CALL.matcher(trace);
    while (m.find()) {
      bytes.add(Long.parseLong(m.group(1)));
    }
    return bytes;
  }
}
