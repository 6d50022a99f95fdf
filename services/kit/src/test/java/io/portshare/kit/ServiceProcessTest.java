package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What jcmd GC.heap_info prints, as JDK 17 prints it for G1 and for the serial collector; a command run as given. */
class ServiceProcessTest {

  @Test
  void execRunsTheCommandAsGivenAndKeepsItsOutputInTheLogToo(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("peer.log"), "an earlier run\n");
    ServiceProcess p = ServiceProcess.exec(List.of("sh", "-c", "echo \"$# $*\"; echo to stderr >&2", "sh", "--port", "7"),
        dir.resolve("peer.log"));
    assertThat(p.awaitExit(Duration.ofSeconds(10))).isZero();
    assertThat(p.output()).isEqualTo("2 --port 7\nto stderr"); // no --warmup added
    assertThat(Files.readString(dir.resolve("peer.log"))).isEqualTo("an earlier run\n2 --port 7\nto stderr\n");
  }

  @Test
  void heapUsedIsTheSumOfTheGenerationsBeforeMetaspace() {
    assertThat(ServiceProcess.heapUsed("""
        26327:
         garbage-first heap   total 40960K, used 5957K [0x0000000687400000, 0x0000000800000000)
          region size 4096K, 0 young (0K), 0 survivors (0K)
         Metaspace       used 8925K, committed 9088K, reserved 1114112K
          class space    used 1062K, committed 1152K, reserved 1048576K
        """)).isEqualTo(5957L * 1024);
    assertThat(ServiceProcess.heapUsed("""
        4242:
         def new generation   total 4928K, used 12K [0x00000000fc400000, 0x00000000fc950000, 0x00000000fd950000)
          eden space 4416K,   0% used [0x00000000fc400000, 0x00000000fc400000, 0x00000000fc850000)
         tenured generation   total 10944K, used 3008K [0x00000000fd950000, 0x00000000fe400000, 0x0000000100000000)
         Metaspace       used 8925K, committed 9088K, reserved 1114112K
        """)).isEqualTo((12L + 3008) * 1024);
    assertThatThrownBy(() -> ServiceProcess.heapUsed("4242:\nnot a JVM we know\n"))
        .hasMessageContaining("no heap figure");
  }
}
