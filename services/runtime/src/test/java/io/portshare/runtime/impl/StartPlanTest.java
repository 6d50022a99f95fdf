package io.portshare.runtime.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.portshare.examples.hello.HelloService;
import io.portshare.runtime.Settings;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.config.TransportSetting;
import io.portshare.runtime.impl.mode.Machine;
import io.portshare.runtime.impl.mode.Mode;
import io.portshare.runtime.impl.mode.Modes;
import io.portshare.runtime.impl.mode.Reuseport;
import io.portshare.runtime.impl.mode.Shared;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.PinnedMode;
import io.portshare.runtime.net.TransportChoice;
import io.vertx.core.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The plan a start settles before it binds anything, for machines that answer as told: what runs,
 * and the reason for each fallback. Starts on the real machine (pinned that holds, inherited
 * sockets) are ScalingModesTest's, PinnedModeTest's and InheritedSocketsTest's.
 */
class StartPlanTest {

  private static RuntimeSettings settings(String... flags) {
    return RuntimeSettings.of(Settings.resolve(ServiceRuntime.options(new HelloService()), List.of(flags), Map.of()));
  }

  /** A machine whose transports answer as {@code transports} says and where pinned is refused for {@code refusal}. */
  private static Machine machine(Function<TransportSetting, TransportChoice.Chosen> transports,
      Throwable refusal, List<String> asked) {
    return machine(transports, refusal, asked, true);
  }

  /** As above, with the Netty here the lean channels' tested one or not. */
  private static Machine machine(Function<TransportSetting, TransportChoice.Chosen> transports,
      Throwable refusal, List<String> asked, boolean leanTested) {
    return new Machine() {
      @Override
      public boolean leanChannelsTested() {
        return leanTested;
      }

      @Override
      public TransportChoice.Chosen transport(TransportSetting wanted) {
        asked.add("transport " + wanted.label());
        return transports.apply(wanted);
      }

      @Override
      public PinnedMode pinned(Transport transport, int instances) {
        asked.add("pinned " + TransportChoice.name(transport) + " x" + instances);
        if (refusal instanceof RuntimeException e) {
          throw e;
        }
        throw (Error) refusal;
      }
    };
  }

  private static TransportChoice.Chosen epoll(TransportSetting wanted) {
    return new TransportChoice.Chosen(Transport.EPOLL, null);
  }

  @Test
  void whatIsAskedForRunsWhereTheMachineHasIt() {
    List<String> asked = new ArrayList<>();
    StartPlan plan = StartPlan.settle(settings("--mode", "shared", "--instances", "3", "--port", "0"),
        InheritedSockets.none(), machine(StartPlanTest::epoll, new AssertionError("not asked"), asked));

    assertThat(plan.mode().name()).isEqualTo(ScalingMode.SHARED);
    assertThat(plan.transport()).isEqualTo(Transport.EPOLL);
    assertThat(plan.transportName()).isEqualTo("epoll");
    assertThat(plan.instances()).isEqualTo(3);
    assertThat(plan.port()).isZero();
    assertThat(plan.mode()).isInstanceOf(Shared.class);
    assertThat(plan.fallbacks()).isEmpty();
    assertThat(plan.inheritedFd(0)).isEqualTo(-1);
    assertThat(asked).containsExactly("transport auto");
  }

  @Test
  void aRefusedTransportIsAFallbackWithItsReason() {
    String why = "transport io_uring is refused here (Operation not permitted); using epoll";
    StartPlan plan = StartPlan.settle(settings("--transport", "io_uring", "--port", "9555"), InheritedSockets.none(),
        machine(w -> new TransportChoice.Chosen(Transport.EPOLL, why), new AssertionError("not asked"),
            new ArrayList<>()));

    assertThat(plan.mode().name()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(plan.transport()).isEqualTo(Transport.EPOLL);
    assertThat(plan.port()).isEqualTo(9555);
    assertThat(plan.fallbacks()).containsExactly(why);
  }

  @Test
  void pinnedRefusedByTheMachineRunsAsReuseportAndSaysWhy() {
    List<String> asked = new ArrayList<>();
    StartPlan plan = StartPlan.settle(settings("--mode", "pinned", "--instances", "2"), InheritedSockets.none(),
        machine(StartPlanTest::epoll, new UnsupportedOperationException("2 instances but only 1 CPUs allowed (0)"),
            asked));

    assertThat(plan.mode().name()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(plan.mode()).isInstanceOf(Reuseport.class);
    assertThat(plan.fallbacks())
        .containsExactly("mode pinned cannot run here: 2 instances but only 1 CPUs allowed (0); running as reuseport");
    assertThat(asked).containsExactly("transport auto", "pinned epoll x2");
  }

  @Test
  void pinnedWithoutItsNativeLibraryRunsAsReuseport() {
    StartPlan plan = StartPlan.settle(settings("--mode", "pinned", "--instances", "1"), InheritedSockets.none(),
        machine(StartPlanTest::epoll, new UnsatisfiedLinkError("Unable to load library 'c'"), new ArrayList<>()));

    assertThat(plan.mode().name()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(plan.fallbacks()).singleElement().asString()
        .startsWith("mode pinned cannot run here: Unable to load library 'c'");
  }

  @Test
  void bothFallbacksAreCarriedInTheOrderTheyWereDecided() {
    String transportWhy = "native epoll transport unavailable (not Linux); using NIO";
    StartPlan plan = StartPlan.settle(settings("--mode", "pinned", "--instances", "1"), InheritedSockets.none(),
        machine(w -> new TransportChoice.Chosen(Transport.NIO, transportWhy),
            new UnsupportedOperationException("it needs a native Linux transport (epoll, io_uring), this runs nio"),
            new ArrayList<>()));

    assertThat(plan.transport()).isEqualTo(Transport.NIO);
    assertThat(plan.mode().name()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(plan.fallbacks()).hasSize(2).first().isEqualTo(transportWhy);
  }

  @Test
  void pinnedFailingOnceBoundIsANewPlanAndTheOldOneStands() {
    List<String> refused = new ArrayList<>();
    Mode pinned = Modes.of(ScalingMode.PINNED).prepare(Transport.EPOLL, 1, Machine.HERE, refused::add);
    assertThat(refused).as("pinned prepared on this machine").isEmpty();
    StartPlan asked = new StartPlan(pinned, Transport.EPOLL, true, 1, InheritedSockets.none(), 0, List.of());

    // No listener of this process on the port: the steering is refused once "bound".
    StartPlan after = asked.steered(new Listeners(), 40000, new SimpleMeterRegistry(), "hello");

    assertThat(after.mode().name()).isEqualTo(ScalingMode.REUSEPORT);
    assertThat(after.transport()).isEqualTo(Transport.EPOLL);
    assertThat(after.instances()).isEqualTo(1);
    assertThat(after.leanChannels()).isTrue();
    assertThat(after.fallbacks()).singleElement().asString()
        .startsWith("mode pinned failed (steering connections on port 40000: ").endsWith("); running as reuseport");
    assertThat(asked.mode()).isSameAs(pinned);
    assertThat(asked.fallbacks()).isEmpty();
  }

  @Test
  void aTransportAskedForByNameAndMissingStopsThePlan() {
    assertThatThrownBy(() -> StartPlan.settle(settings("--transport", "epoll"), InheritedSockets.none(),
        machine(w -> {
          throw new UsageException("transport epoll is not available here: no native library");
        }, new AssertionError("not asked"), new ArrayList<>())))
        .isInstanceOf(UsageException.class)
        .hasMessage("transport epoll is not available here: no native library");
  }

  @Test
  void theFallbackListCannotBeChangedAfterwards() {
    List<String> reasons = new ArrayList<>(List.of("one"));
    StartPlan plan = new StartPlan(Modes.of(ScalingMode.REUSEPORT), Transport.EPOLL, true, 1, InheritedSockets.none(), 0,
        reasons);
    reasons.add("two");

    assertThat(plan.fallbacks()).containsExactly("one");
    assertThatThrownBy(() -> plan.fallbacks().add("three")).isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest(name = "--transport {0} --channel {1}, lean channels tested here: {2}")
  @CsvSource({
      "epoll,    lean,  true,  lean,  ",
      "epoll,    netty, true,  netty, ",
      "epoll,    lean,  false, netty, --channel lean was tested on Netty",
      "nio,      lean,  true,  netty, ",
      "io_uring, lean,  true,  netty, ",
  })
  void leanChannelsRunOnEpollAndOnlyOnTheNettyTheyWereTestedOn(String transport, String channel, boolean tested,
      String runs, String fallback) {
    Transport t = transport.equals("epoll") ? Transport.EPOLL : transport.equals("nio") ? Transport.NIO
        : Transport.IO_URING;
    StartPlan plan = StartPlan.settle(settings("--transport", transport, "--channel", channel),
        InheritedSockets.none(), machine(w -> new TransportChoice.Chosen(t, null), new AssertionError("not asked"),
            new ArrayList<>(), tested));

    assertThat(plan.channelName()).isEqualTo(runs);
    if (fallback == null) {
      assertThat(plan.fallbacks()).isEmpty();
    } else {
      assertThat(plan.fallbacks()).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .startsWith(fallback).endsWith("this runs: using Netty's own channels");
    }
  }
}
