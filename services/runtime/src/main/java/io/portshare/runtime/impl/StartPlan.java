package io.portshare.runtime.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.config.ChannelSetting;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.mode.GivenSockets;
import io.portshare.runtime.impl.mode.Machine;
import io.portshare.runtime.impl.mode.Mode;
import io.portshare.runtime.impl.mode.Modes;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
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
 * <p>A value: a fallback that can only show once the listeners are bound (pinned's steering
 * refused) is a new plan ({@link #steered}).
 *
 * @param mode the scaling mode that runs, prepared for this start (see {@link Mode#prepare})
 * @param leanChannels listeners and connections are the runtime's lean epoll channels, not Netty's own
 * @param fallbacks each decision that differs from the settings, in the words of its WARN line
 */
public record StartPlan(Mode mode, Transport transport, boolean leanChannels, int instances,
    InheritedSockets sockets, int port, List<String> fallbacks) {

  private static final Logger LOG = LoggerFactory.getLogger(StartPlan.class);

  public StartPlan {
    fallbacks = List.copyOf(fallbacks);
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
    transport = GivenSockets.transport(sockets, transport, machine, why -> fallback(fallbacks, why));
    Mode mode = Modes.of(settings.mode()).prepare(transport, settings.instances(), machine,
        why -> fallback(fallbacks, why));
    GivenSockets.check(sockets, mode, settings, transport);
    boolean lean = transport == Transport.EPOLL && settings.channel() == ChannelSetting.LEAN;
    if (lean && !machine.leanChannelsTested()) {
      fallback(fallbacks, "--channel lean was tested on Netty " + LeanChannels.TESTED_NETTY + ", not on the "
          + LeanChannels.nettyOnClassPath() + " this runs: using Netty's own channels");
      lean = false;
    }
    int port = sockets.isEmpty() ? settings.port() : sockets.port();
    return new StartPlan(mode, transport, lean, settings.instances(), sockets, port, fallbacks);
  }

  private static void fallback(List<String> fallbacks, String why) {
    LOG.warn(why);
    fallbacks.add(why);
  }

  /**
   * This plan once its mode steered connections to the listeners bound on {@code port}: itself, or a
   * new plan in the mode it fell back to, with the reason (already printed as a WARN line).
   */
  StartPlan steered(Listeners listeners, int port, MeterRegistry registry, String service) {
    List<String> more = new ArrayList<>(fallbacks);
    Mode running = mode.steer(listeners, port, instances, registry, service, more::add);
    return running == mode ? this : new StartPlan(running, transport, leanChannels, instances, sockets, port, more);
  }

  /** The transport's name as the banner, the metrics and {@code --transport} spell it. */
  public String transportName() {
    return TransportChoice.name(transport);
  }

  /** The channels that run, as the banner, the metrics and {@code --channel} spell them. */
  public String channelName() {
    return (leanChannels ? ChannelSetting.LEAN : ChannelSetting.NETTY).label();
  }

  /** The inherited descriptor the Vert.x instance {@code index} serves, or -1: it binds its own. */
  int inheritedFd(int index) {
    return sockets.isEmpty() ? -1 : sockets.fd(index);
  }
}
