package io.portshare.runtime.impl;

import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.ChannelSetting;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.config.TransportSetting;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.PinnedMode;
import io.portshare.runtime.net.TransportChoice;
import io.portshare.runtime.net.lean.LeanChannels;
import io.vertx.core.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a start runs, settled before anything is bound: the scaling mode, the transport, how many
 * instances, whose sockets (inherited, or none: bound here) and the port asked for, with the
 * reason for each fallback from what the settings asked. {@link ServiceRuntime} carries it out;
 * {@code portshare_info} and the start banner read it.
 *
 * <p>A value: the one fallback that can only show once the listeners are bound (pinned's
 * steering refused) is a new plan ({@link #withoutPinning}).
 *
 * @param leanChannels listeners and connections are the runtime's lean epoll channels, not Netty's own
 * @param pinned the prepared pinned layout when {@code mode} is pinned, else null
 * @param fallbacks each decision that differs from the settings, in the words of its WARN line
 */
public record StartPlan(ScalingMode mode, Transport transport, boolean leanChannels, int instances,
    InheritedSockets sockets, int port, PinnedMode pinned, List<String> fallbacks) {

  private static final Logger LOG = LoggerFactory.getLogger(StartPlan.class);

  public StartPlan {
    fallbacks = List.copyOf(fallbacks);
  }

  /** What the plan asks of the machine: which transports run here, and whether pinned can. */
  interface Machine {
    /** The machine this process runs on. */
    Machine HERE = new Machine() {
      @Override
      public TransportChoice.Chosen transport(TransportSetting wanted) {
        return TransportChoice.choose(wanted);
      }

      @Override
      public PinnedMode pinned(Transport transport, int instances) {
        return PinnedMode.prepare(transport, instances);
      }

      @Override
      public boolean leanChannelsTested() {
        return LeanChannels.testedOnThisNetty();
      }
    };

    TransportChoice.Chosen transport(TransportSetting wanted);

    /** The pinned layout; throws, the reason in its message, where it cannot run. */
    PinnedMode pinned(Transport transport, int instances);

    /** True when the Netty here is the one the lean channels were tested on. */
    boolean leanChannelsTested();
  }

  /**
   * The plan for {@code settings} on {@code sockets} (none: bind here), each fallback logged as a
   * WARN line as it is decided. Fails with one line (exit 2) where inherited sockets do not fit.
   */
  static StartPlan settle(RuntimeSettings settings, InheritedSockets sockets, Machine machine) {
    List<String> fallbacks = new ArrayList<>();
    TransportChoice.Chosen chosen = machine.transport(settings.transport());
    Transport transport = chosen.transport();
    if (chosen.fallback() != null) {
      fallback(fallbacks, chosen.fallback());
    }
    if (!sockets.isEmpty() && transport == Transport.IO_URING) {
      // Netty's io_uring listener cannot be built over an existing descriptor; epoll's can.
      fallback(fallbacks, "transport io_uring cannot serve inherited listening sockets; using epoll");
      transport = machine.transport(TransportSetting.EPOLL).transport();
    }
    ScalingMode mode = settings.mode();
    PinnedMode pinned = null;
    if (mode == ScalingMode.PINNED) {
      try {
        pinned = machine.pinned(transport, settings.instances());
      } catch (RuntimeException | LinkageError e) {
        fallback(fallbacks, "mode pinned cannot run here: " + e.getMessage() + "; running as reuseport");
        mode = ScalingMode.REUSEPORT;
      }
    }
    if (!sockets.isEmpty()) {
      sockets.check(mode, settings);
      if (transport != Transport.EPOLL) {
        throw new UsageException(sockets.source() + ": serving inherited sockets needs --transport epoll (this "
            + "runs " + TransportChoice.name(transport) + ")");
      }
    }
    boolean lean = transport == Transport.EPOLL && settings.channel() == ChannelSetting.LEAN;
    if (lean && !machine.leanChannelsTested()) {
      fallback(fallbacks, "--channel lean was tested on Netty " + LeanChannels.TESTED_NETTY + ", not on the "
          + LeanChannels.nettyOnClassPath() + " this runs: using Netty's own channels");
      lean = false;
    }
    int port = sockets.isEmpty() ? settings.port() : sockets.port();
    return new StartPlan(mode, transport, lean, settings.instances(), sockets, port, pinned, fallbacks);
  }

  private static void fallback(List<String> fallbacks, String why) {
    LOG.warn(why);
    fallbacks.add(why);
  }

  /** This plan run as reuseport, once pinned failed after its preparation (its own WARN line said why). */
  StartPlan withoutPinning(String why) {
    List<String> more = new ArrayList<>(fallbacks);
    more.add("mode pinned failed (" + why + "); running as reuseport");
    return new StartPlan(ScalingMode.REUSEPORT, transport, leanChannels, instances, sockets, port, null, more);
  }

  /** The transport's name as the banner, the metrics and {@code --transport} spell it. */
  public String transportName() {
    return TransportChoice.name(transport);
  }

  /** The channels that run, as the banner, the metrics and {@code --channel} spell them. */
  public String channelName() {
    return (leanChannels ? ChannelSetting.LEAN : ChannelSetting.NETTY).label();
  }

  /** The inherited descriptor instance {@code index} serves, or -1: it binds its own. */
  int inheritedFd(int index) {
    return sockets.isEmpty() ? -1 : sockets.fd(index);
  }
}
