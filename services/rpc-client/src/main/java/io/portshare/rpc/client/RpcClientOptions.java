package io.portshare.rpc.client;

import io.portshare.rpc.codec.RpcFrame;

/** How an {@link RpcClient} connects and how much it keeps in flight. */
public final class RpcClientOptions {

  private int pipelineDepth = 1;
  private int maxPayload = RpcFrame.DEFAULT_MAX_PAYLOAD;
  private int connectTimeoutMillis = 10_000;
  private boolean resetOnClose;
  private boolean tcpNoDelay = true;

  public int getPipelineDepth() {
    return pipelineDepth;
  }

  /** Requests written before their answers return, per connection; more wait in the client. Default 1. */
  public RpcClientOptions setPipelineDepth(int pipelineDepth) {
    if (pipelineDepth < 1) {
      throw new IllegalArgumentException("pipeline depth must be at least 1: " + pipelineDepth);
    }
    this.pipelineDepth = pipelineDepth;
    return this;
  }

  public int getMaxPayload() {
    return maxPayload;
  }

  /** The largest answer accepted; a longer declared length fails the connection. Default 1 MiB. */
  public RpcClientOptions setMaxPayload(int maxPayload) {
    this.maxPayload = maxPayload;
    return this;
  }

  public int getConnectTimeoutMillis() {
    return connectTimeoutMillis;
  }

  public RpcClientOptions setConnectTimeoutMillis(int connectTimeoutMillis) {
    this.connectTimeoutMillis = connectTimeoutMillis;
    return this;
  }

  public boolean isResetOnClose() {
    return resetOnClose;
  }

  /**
   * Close with a TCP reset (SO_LINGER 0) rather than a FIN, as many load generators do: no
   * TIME_WAIT sockets pile up when every transaction opens a new connection. Default false.
   */
  public RpcClientOptions setResetOnClose(boolean resetOnClose) {
    this.resetOnClose = resetOnClose;
    return this;
  }

  public boolean isTcpNoDelay() {
    return tcpNoDelay;
  }

  public RpcClientOptions setTcpNoDelay(boolean tcpNoDelay) {
    this.tcpNoDelay = tcpNoDelay;
    return this;
  }
}
