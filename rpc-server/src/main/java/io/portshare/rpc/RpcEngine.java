package io.portshare.rpc;

/** What serves each connection: a Netty pipeline of the service's own, or Vert.x's {@code NetSocket}. */
public enum RpcEngine {
  /** {@link EchoVerticle}: {@link EchoHandler} on a pipeline of its own, no {@code NetSocket}. */
  OWN("own"),
  /** {@link io.portshare.rpc.netsocket.NetSocketEchoVerticle}: a Vert.x {@code NetServer}, a {@code NetSocket} each. */
  VERTX("vertx");

  private final String label;

  RpcEngine(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The engine named {@code label}; the option's choices guarantee there is one. */
  public static RpcEngine of(String label) {
    for (RpcEngine e : values()) {
      if (e.label.equals(label)) {
        return e;
      }
    }
    throw new IllegalArgumentException("no RPC engine " + label);
  }
}
