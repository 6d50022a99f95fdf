package io.portshare.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.Repository;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The soak scenarios, short, against the real service jars as separate processes (the reactor
 * packages rpc-server and static-server before the system tests). Sizes are those of deploy/soak.sh without
 * --long; every scenario asserts its own verdict and the figures it printed are in the message.
 */
class SoakScenariosTest {

  static SoakConfig cfg;

  @TempDir
  static Path scratch;

  @BeforeAll
  static void jars() {
    Repository.serviceJar("rpc-server");
    Repository.serviceJar("static-server");
    cfg = SoakConfig.quick(Repository.root(), 0);
  }

  private static void holds(ScenarioResult r) {
    System.out.println(r.line()); // the figures of a passing run too, in the test's output file
    assertThat(r.passed()).as(r.line()).isTrue();
  }

  @Test
  void twentyThousandShortConnectionsLeaveNoDescriptorOrHeapBehind() throws Exception {
    ScenarioResult r = ShortConnections.run(cfg, cfg.shortConnections());
    holds(r);
    assertThat(r.failures()).as(r.line()).isZero();
    assertThat(r.connections()).isGreaterThanOrEqualTo(cfg.shortConnections());
  }

  @ParameterizedTest
  @EnumSource(ConcurrentConnections.Service.class)
  void connectionsHeldOverTwoProcessesOnOnePortFromTwoSourceAddressesAreAllServed(
      ConcurrentConnections.Service service) throws Exception {
    ScenarioResult r = ConcurrentConnections.run(cfg, cfg.concurrentConnections(), 2, service);
    holds(r);
    assertThat(r.connections()).isEqualTo(cfg.concurrentConnections());
  }

  @Test
  void sigkillOfOneSupervisedProcessBreaksOnlyItsConnectionsAndItComesBack() throws Exception {
    holds(ProcessKill.run(cfg, 3, cfg.loadTime()));
  }

  /**
   * Processes that bind their own sockets: with net.ipv4.tcp_migrate_req=1 docs/shutdown.md promises 0 failed
   * transactions; with 0 the drain only narrows the window (a SYN reaching the closing listener is
   * reset), so the count is reported in the line and the drains must still exit 0 with traffic
   * served. 0 without migration is the promise of the handover scenarios below. As root each runs in
   * a network namespace of its own with the setting made there; otherwise only the host's own
   * setting can be run, and the other is skipped saying so.
   */
  @ParameterizedTest(name = "tcp_migrate_req={0}")
  @ValueSource(booleans = {false, true})
  void rollingRestartOfProcessesThatBindTheirOwnSockets(boolean migrate) throws Exception {
    String setting = migrate ? "1" : "0";
    ScenarioResult r;
    if (NetNamespace.available()) {
      r = SoakMain.inNamespace("rolling", cfg, Repository.root(), migrate);
    } else {
      Ci.require(setting.equals(RollingRestart.readMigrate()), "needs root for a network namespace, or "
          + "net.ipv4.tcp_migrate_req=" + setting + " on this host (it is " + RollingRestart.readMigrate() + ")");
      r = RollingRestart.run(cfg, cfg.processes(), cfg.rollingRounds(), "");
    }
    assertThat(r.what()).as(r.line()).contains("tcp_migrate_req=" + setting);
    holds(r);
    if (migrate) {
      assertThat(r.failures()).as(r.line()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"handover", "handover-activate"})
  void sighupReplacementThroughTheSupervisorThatHoldsTheSocketsLosesNoTransactionWithoutMigration(String scenario)
      throws Exception {
    ScenarioResult r;
    if (NetNamespace.available()) {
      r = SoakMain.inNamespace(scenario, cfg, Repository.root(), false);
    } else {
      // With migration on, a loss-free hand-over would prove nothing about the sockets being held.
      Ci.require("0".equals(RollingRestart.readMigrate()), "needs root for a network namespace, or "
          + "net.ipv4.tcp_migrate_req=0 on this host (it is " + RollingRestart.readMigrate() + ")");
      r = SocketHandover.run(cfg, scenario.equals("handover-activate"));
    }
    assertThat(r.what()).as(r.line()).contains("tcp_migrate_req=0");
    holds(r);
    assertThat(r.failures()).as(r.line()).isZero();
    assertThat(r.connections()).as(r.line()).isGreaterThanOrEqualTo(cfg.shortConnections());
  }

  @Test
  void sigtermAnswersEveryFrameInFlight() throws Exception {
    holds(TermInFlight.rpc(cfg));
  }

  @Test
  void sigtermFinishesEveryBodyInFlight() throws Exception {
    holds(TermInFlight.statics(cfg, scratch));
  }

  @Test
  void slowlorisIsClosedByTheHeaderTimeoutWhileOthersAreServed() throws Exception {
    holds(SlowPeers.slowloris(cfg));
  }

  @Test
  void halfFramesAndNeverReadingClientsAreBoundedAndClosed() throws Exception {
    holds(SlowPeers.rpcStalls(cfg));
  }
}
