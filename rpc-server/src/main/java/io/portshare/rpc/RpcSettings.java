package io.portshare.rpc;

import io.portshare.rpc.codec.RpcFrame;
import io.portshare.runtime.Option;
import io.portshare.runtime.Settings;
import java.time.Duration;
import java.util.List;

/** The RPC service's own options, and their values resolved, checked and typed. */
public record RpcSettings(int maxFrame, Duration idleTimeout, RpcEngine engine) {

  public static final String MAX_FRAME = "max-frame";
  /** The runtime's --idle-timeout (its default, 60s, is this service's too). */
  public static final String IDLE_TIMEOUT = "idle-timeout";
  public static final String ENGINE = "engine";
  static final List<Option> OPTIONS = List.of(
      Option.size(MAX_FRAME, "1MiB", "largest payload accepted; a longer declared length closes the connection"),
      Option.choice(ENGINE, RpcEngine.OWN.label(), "own: a Netty pipeline of the service's own per connection, "
          + "answers sliced from the buffer read; vertx: Vert.x's NetServer and a NetSocket per connection",
          RpcEngine.OWN.label(), RpcEngine.VERTX.label()));

  /** Reads the options; a value out of range fails with the one-line error naming key, value and source. */
  public static RpcSettings of(Settings s) {
    long max = s.getSize(MAX_FRAME);
    if (max > RpcFrame.LARGEST_MAX_PAYLOAD) {
      throw s.invalid(MAX_FRAME, "at most " + RpcFrame.LARGEST_MAX_PAYLOAD + " bytes");
    }
    return new RpcSettings((int) max, s.getDuration(IDLE_TIMEOUT), RpcEngine.of(s.getString(ENGINE)));
  }
}
