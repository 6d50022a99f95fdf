package io.portshare.rpc;

import io.portshare.rpc.client.Frames;
import io.portshare.rpc.netsocket.NetSocketEchoVerticle;
import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;

/** The RPC echo service: answers every length-prefixed frame with the same frame, in order. */
public final class RpcService implements ServiceDescriptor {

  private static final int WARM_UP_PAYLOAD = 64;

  @Override
  public String name() {
    return "rpc";
  }

  @Override
  public String description() {
    return "rpc: echoes frames of a 4-byte big-endian length and that many bytes, in order, pipelined";
  }

  @Override
  public int defaultPort() {
    return 9090;
  }

  @Override
  public int defaultAdminPort() {
    return 9091;
  }

  @Override
  public List<Option> options() {
    return RpcSettings.OPTIONS;
  }

  @Override
  public void validate(Settings settings) {
    RpcSettings.of(settings);
  }

  /** One 64-byte frame per connection, as in the benchmark's 64B|1x: answered by the same frame. */
  @Override
  public Optional<WarmUpExchange> warmUp(Settings settings) {
    Buffer frame = Frames.encodePattern(WARM_UP_PAYLOAD);
    return Optional.of(new WarmUpExchange() {
      @Override
      public Buffer request() {
        return frame;
      }

      @Override
      public boolean answered(Buffer received, boolean closed) {
        return received.length() >= frame.length() && received.slice(0, frame.length()).equals(frame);
      }

      @Override
      public String toString() {
        return "RPC echo of " + WARM_UP_PAYLOAD + " bytes";
      }
    });
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new EchoVerticle();
  }

  /** The verticle of the engine {@code --engine} names; the runtime creates one per instance. */
  @Override
  public ServiceVerticle newVerticle(Settings settings) {
    return RpcSettings.of(settings).engine() == RpcEngine.VERTX ? new NetSocketEchoVerticle() : new EchoVerticle();
  }
}
