package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.runtime.IoUringOrFallback;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.Settings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.transport.Transport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pinned mode against the real kernel: threads really bound to CPUs, connections really
 * steered by the CPU they arrive on, and the fallback when it cannot work.
 */
class PinnedModeTest {

  /** Enough connections that plain reuseport hashing would send some to the other loop (2^-24 chance it doesn't). */
  private static final int CONNECTIONS_PER_CPU = 24;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  private ServiceRuntime runtime;

  private static int[] allowedCpus() {
    Ci.require(Transport.EPOLL.available(), "native epoll transport (Linux)");
    return CpuAffinity.load().allowedCpus();
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void eachLoopAndAcceptorIsPinnedAndEachConnectionLandsOnTheLoopOfItsCpu(String transport) throws Exception {
    int[] cpus = allowedCpus();
    Ci.require(cpus.length >= 2, "pinning two loops needs at least 2 CPUs");
    // Where the kernel refuses io_uring, the io_uring case checks the fallback, then pins on epoll.
    runtime = transport.equals("io_uring")
        ? IoUringOrFallback.start(runtimes, new CpuProbeService(), "--port", "0", "--admin-port", "0",
            "--instances", "2", "--mode", "pinned")
        : runtimes.start(new CpuProbeService(), "--port", "0", "--admin-port", "0", "--instances", "2",
            "--mode", "pinned", "--transport", transport);
    assertThat(runtime.mode()).isEqualTo(ScalingMode.PINNED);
    assertThat(runtime.transport()).isEqualTo(transport.equals("io_uring") ? IoUringOrFallback.transport() : transport);

    // Blocking work is not confined to its loop's CPU.
    String processCpus = CpuProbeService.cpusAllowedList("/proc/self/status");
    for (int k = 0; k < 2; k++) {
      // On loopback the kernel handles the client's SYN on the CPU that sent it, so a client
      // bound to CPU k must always reach listener k, whose loop and acceptor run on CPU k.
      String expected = "loop=" + k + " loopCpus=" + cpus[k] + " acceptorCpus=" + cpus[k] + " workerCpus=" + processCpus;
      List<String> lines = connectFromCpu(cpus[k], runtime.port(), CONNECTIONS_PER_CPU);
      assertThat(lines).hasSize(CONNECTIONS_PER_CPU).allMatch(expected::equals, expected);
    }

    String metrics = runtime.registry().scrape();
    assertThat(metrics).containsPattern("portshare_info\\{[^}]*mode=\"pinned\"");
    assertThat(metrics)
        .contains("portshare_event_loop_cpu{loop=\"0\",service=\"cpu-probe\"} " + (double) cpus[0])
        .contains("portshare_event_loop_cpu{loop=\"1\",service=\"cpu-probe\"} " + (double) cpus[1])
        .contains("portshare_connections_accepted_total{loop=\"0\",service=\"cpu-probe\"} " + (double) CONNECTIONS_PER_CPU)
        .contains("portshare_connections_accepted_total{loop=\"1\",service=\"cpu-probe\"} " + (double) CONNECTIONS_PER_CPU);
  }

  @Test
  void inheritedSocketsBoundInCpuOrderArePinnedAndSteeredLikeOwnOnes() throws Exception {
    int[] cpus = allowedCpus();
    Ci.require(cpus.length >= 2, "pinning two loops needs at least 2 CPUs");
    List<Integer> fds = new ArrayList<>();
    try {
      int port = 0;
      for (int i = 0; i < 2; i++) {
        fds.add(RawListeners.bindReuseport(new InetSocketAddress("127.0.0.1", port), 128));
        port = RawListeners.localAddress(fds.get(0)).getPort();
      }
      Settings settings = Settings.resolve(ServiceRuntime.options(new CpuProbeService()), List.of("--port", "0",
          "--admin-port", "0", "--instances", "2", "--mode", "pinned", "--warmup=0"), Map.of());
      // Its own descriptors of the sockets, as a process is handed them: it closes them as it drains.
      List<Integer> handed = fds.stream().map(LinuxLibC.load()::dup).collect(Collectors.toList());
      runtime = runtimes.start(new CpuProbeService(), settings, InheritedSockets.of(handed, "test", null));
      assertThat(runtime.mode()).isEqualTo(ScalingMode.PINNED);
      String processCpus = CpuProbeService.cpusAllowedList("/proc/self/status");
      for (int k = 0; k < 2; k++) {
        String expected = "loop=" + k + " loopCpus=" + cpus[k] + " acceptorCpus=" + cpus[k] + " workerCpus="
            + processCpus;
        assertThat(connectFromCpu(cpus[k], port, CONNECTIONS_PER_CPU)).allMatch(expected::equals, expected);
      }
    } finally {
      // The sockets outlive the runtime they were handed to.
      runtimes.stopAll();
      fds.forEach(RawListeners::close);
    }
  }

  @Test
  void moreInstancesThanCpusFallsBackToUnpinnedReuseport() throws Exception {
    int[] cpus = allowedCpus();
    runtime = runtimes.start(new CpuProbeService(), "--port", "0", "--admin-port", "0",
        "--instances", Integer.toString(cpus.length + 1), "--mode", "pinned");

    assertThat(runtime.mode()).isEqualTo(ScalingMode.REUSEPORT);
    assertFallback(cpus);
  }

  @Test
  void nioTransportFallsBackToUnpinnedReuseport() throws Exception {
    int[] cpus = allowedCpus();
    runtime = runtimes.start(new CpuProbeService(), "--port", "0", "--admin-port", "0", "--instances", "1",
        "--mode", "pinned", "--transport", "nio");

    assertThat(runtime.mode()).isEqualTo(ScalingMode.REUSEPORT);
    assertFallback(cpus);
  }

  @Test
  void aForeignListenerInTheGroupFallsBackToUnpinnedReuseport() throws Exception {
    int[] cpus = allowedCpus();
    Ci.require(cpus.length >= 2, "pinning two loops needs at least 2 CPUs");
    // A socket of someone else already in the reuseport group would shift every listener index.
    try (ServerSocketChannel foreign = ServerSocketChannel.open()) {
      foreign.setOption(StandardSocketOptions.SO_REUSEPORT, true);
      foreign.bind(new InetSocketAddress("0.0.0.0", 0));
      int port = ((InetSocketAddress) foreign.getLocalAddress()).getPort();
      runtime = runtimes.start(new CpuProbeService(), "--port", Integer.toString(port), "--admin-port", "0",
          "--instances", "2", "--mode", "pinned");
    }

    assertThat(runtime.mode()).isEqualTo(ScalingMode.REUSEPORT);
    assertFallback(cpus);
  }

  private void assertFallback(int[] cpus) throws Exception {
    String processCpus = CpuProbeService.cpusAllowedList("/proc/self/status");
    List<String> lines = connectFromCpu(cpus[0], runtime.port(), 4);
    assertThat(lines).hasSize(4)
        .allMatch(l -> l.contains(" loopCpus=" + processCpus + " acceptorCpus=" + processCpus + " "), "unpinned");
    String metrics = runtime.registry().scrape();
    assertThat(metrics).containsPattern("portshare_info\\{[^}]*mode=\"reuseport\"")
        .doesNotContain("mode=\"pinned\"")
        .doesNotContain("portshare_event_loop_cpu");
  }

  @Test
  void steeringProgramIsTheCpuWhenCpusAreZeroToN() {
    assertThat(ReuseportSteering.program(new int[] {0, 1, 2})).containsExactly(
        new ReuseportSteering.Insn(0x20, 0, 0, 0xfffff024),
        new ReuseportSteering.Insn(0x16, 0, 0, 0));
  }

  @Test
  void steeringProgramMapsACpusetToListenerIndexes() {
    assertThat(ReuseportSteering.program(new int[] {2, 5})).containsExactly(
        new ReuseportSteering.Insn(0x20, 0, 0, 0xfffff024),
        new ReuseportSteering.Insn(0x15, 0, 1, 2),
        new ReuseportSteering.Insn(0x06, 0, 0, 0),
        new ReuseportSteering.Insn(0x15, 0, 1, 5),
        new ReuseportSteering.Insn(0x06, 0, 0, 1),
        new ReuseportSteering.Insn(0x06, 0, 0, 0xffffffff));
  }

  @Test
  void theKernelAcceptsBothProgramShapes() {
    allowedCpus();
    ReuseportSteering steering = new ReuseportSteering(LinuxLibC.load());
    steering.probe(new int[] {0, 1});
    steering.probe(new int[] {1, 3, 64});
  }

  @Test
  void listeningSocketsAreCountedFromTheKernelTable() {
    List<String> table = List.of(
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 00000000:2382 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 41001 1 0",
        "   1: 0100007F:2382 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000  1000        0 41002 1 0",
        "   2: 00000000:2383 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 41003 1 0");
    assertThat(ReuseportSteering.listeningOn(table, 0x2382)).isEqualTo(1);
  }

  /** Opens {@code n} connections one by one from a thread bound to {@code cpu}; returns each first line. */
  private static List<String> connectFromCpu(int cpu, int port, int n) throws Exception {
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      return client.submit(() -> {
        CpuAffinity.load().pinCurrentThread(cpu);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          try (Socket s = new Socket()) {
            s.setSoTimeout(10_000);
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            lines.add(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                .readLine());
          }
        }
        return lines;
      }).get(60, TimeUnit.SECONDS);
    } finally {
      client.shutdownNow();
    }
  }
}
