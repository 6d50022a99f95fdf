package io.portshare.rpc.client;

import io.portshare.rpc.codec.RpcFrame;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;

/**
 * One client connection to the RPC echo service. Requests go out in order, at most
 * {@code pipelineDepth} unanswered at a time (the rest wait here); each answer is compared byte
 * for byte with its request. Methods may be called from any thread; the work runs on the
 * connection's context.
 */
public final class RpcConnection {

  /** The connection closed before the request was answered. */
  public static final class ClosedException extends VertxException {
    ClosedException(String message, Throwable cause) {
      super(message, cause, true);
    }
  }

  private final NetSocket socket;
  /**
   * Held for as long as the connection is: Vert.x closes a NetClient, and every connection it opened,
   * once nothing references the client, and a caller may keep only the connection.
   */
  @SuppressWarnings("unused")
  private final RpcClient client;
  private final Context context;
  private final int pipelineDepth;
  private final int maxPayload;
  // Context state.
  private final ArrayDeque<Request> inFlight = new ArrayDeque<>();
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  /** The start of an answer whose rest has not arrived yet; null when none. */
  private Buffer partial;
  private long sent;
  private volatile long answered;
  private volatile int pending;
  private boolean closed;
  private Throwable failure;
  private Handler<Void> closeHandler;

  private record Request(long number, Buffer frame, Promise<Void> promise) {}

  /** Called on the socket's context, as the connection opens. */
  RpcConnection(NetSocket socket, RpcClientOptions options, RpcClient client) {
    this.socket = socket;
    this.client = client;
    this.context = Vertx.currentContext();
    this.pipelineDepth = options.getPipelineDepth();
    this.maxPayload = options.getMaxPayload();
    socket.handler(this::received);
    socket.exceptionHandler(t -> fail(new ClosedException("connection failed: " + t.getMessage(), t)));
    socket.closeHandler(v -> closed());
  }

  /** Sends {@code payload} as one frame; completes when its echo came back identical. */
  public Future<Void> send(Buffer payload) {
    return sendFrame(Frames.encode(payload));
  }

  /**
   * Sends an already encoded frame (see {@link Frames#encode}); completes when its echo came back
   * identical. The same frame may be sent again and again (a load generator does), so it must not
   * change once sent.
   */
  public Future<Void> sendFrame(Buffer frame) {
    Promise<Void> promise = Promise.promise();
    if (Vertx.currentContext() == context) {
      enqueue(frame, promise);
    } else {
      context.runOnContext(v -> enqueue(frame, promise));
    }
    return promise.future();
  }

  /** Requests sent and not answered yet, plus those waiting for a pipeline slot. */
  public int pending() {
    return pending;
  }

  /** Answers received and verified so far. */
  public long answered() {
    return answered;
  }

  public Future<Void> close() {
    return socket.close();
  }

  /**
   * Called once, on the connection's context, when the connection closed (by either side); at once
   * if it closed before the handler was set (a peer may close a connection before its opener has set
   * anything on it).
   */
  public RpcConnection closeHandler(Handler<Void> handler) {
    if (Vertx.currentContext() == context) {
      setCloseHandler(handler);
    } else {
      context.runOnContext(v -> setCloseHandler(handler));
    }
    return this;
  }

  private void setCloseHandler(Handler<Void> handler) {
    closeHandler = handler;
    if (closed && handler != null) {
      handler.handle(null);
    }
  }

  private void enqueue(Buffer frame, Promise<Void> promise) {
    if (closed || failure != null) {
      promise.fail(new ClosedException("connection closed", failure));
      return;
    }
    Request r = new Request(sent++, frame, promise);
    if (inFlight.size() < pipelineDepth) {
      write(r);
    } else {
      waiting.add(r);
    }
    pending++;
  }

  private void write(Request r) {
    inFlight.add(r);
    socket.write(r.frame);
  }

  /** Splits what arrived into answers; the start of one that is not whole waits for the rest. */
  private void received(Buffer data) {
    Buffer in = partial == null ? data : partial.appendBuffer(data);
    int at = 0;
    int length = in.length();
    while (failure == null && length - at >= RpcFrame.HEADER_LENGTH) {
      int header = in.getInt(at);
      int frameLength = RpcFrame.frameLength(header, maxPayload);
      if (frameLength < 0) {
        fail(new VertxException("answer " + RpcFrame.tooLong(header, maxPayload), true));
        return;
      }
      if (length - at < frameLength) {
        break;
      }
      answer(in, at, frameLength);
      at += frameLength;
    }
    if (failure != null) {
      return;
    }
    // What is kept is copied: the buffer Vert.x handed in is not ours once this returns.
    partial = at == length ? null : Buffer.buffer(length - at + RpcFrame.HEADER_LENGTH).appendBuffer(in, at, length - at);
  }

  private void answer(Buffer in, int at, int frameLength) {
    Request r = inFlight.poll();
    if (r == null) {
      fail(new VertxException("an answer arrived with no request outstanding", true));
      return;
    }
    if (frameLength != r.frame.length()) {
      mismatch(r, "length " + (frameLength - RpcFrame.HEADER_LENGTH) + ", sent " + (r.frame.length() - RpcFrame.HEADER_LENGTH));
      return;
    }
    if (!in.slice(at, at + frameLength).equals(r.frame)) {
      mismatch(r, "payload bytes differ");
      return;
    }
    answered++;
    pending--;
    Request next = waiting.poll();
    if (next != null) {
      write(next);
    }
    r.promise.complete();
  }

  private void mismatch(Request r, String detail) {
    EchoMismatchException e = new EchoMismatchException(r.number, detail);
    r.promise.fail(e);
    fail(e);
  }

  /** The connection is no longer trusted: every request still open fails, and it closes. */
  private void fail(Throwable cause) {
    failAll(cause);
    socket.close();
  }

  private void closed() {
    closed = true;
    partial = null;
    failAll(new ClosedException("connection closed", failure));
    if (closeHandler != null) {
      closeHandler.handle(null);
    }
  }

  private void failAll(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    pending = 0;
    Request r;
    while ((r = inFlight.poll()) != null) {
      r.promise.tryFail(cause);
    }
    while ((r = waiting.poll()) != null) {
      r.promise.tryFail(cause);
    }
  }
}
