package io.portshare.rpc.client;

/** The server answered with bytes other than those sent: the connection is no longer trusted. */
public final class EchoMismatchException extends RuntimeException {

  private final long request;

  EchoMismatchException(long request, String detail) {
    super("answer to request #" + request + " differs from what was sent: " + detail, null, false, false);
    this.request = request;
  }

  /** The request's number on its connection, counting from 0. */
  public long request() {
    return request;
  }
}
