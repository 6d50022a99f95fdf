package io.portshare.rpc;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import java.util.List;

/** The RPC echo service: answers every length-prefixed frame with the same frame, in order. */
public final class RpcService implements ServiceDescriptor {

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

  @Override
  public ServiceVerticle newVerticle() {
    return new EchoVerticle();
  }
}
