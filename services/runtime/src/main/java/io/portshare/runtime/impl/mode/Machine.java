package io.portshare.runtime.impl.mode;

import io.portshare.runtime.config.TransportSetting;
import io.portshare.runtime.net.PinnedMode;
import io.portshare.runtime.net.TransportChoice;
import io.portshare.runtime.net.lean.LeanChannels;
import io.vertx.core.transport.Transport;

/** What a start's plan asks of the machine: which transports run here, and whether pinned can. */
public interface Machine {

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
