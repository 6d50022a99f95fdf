package io.portshare.rpc.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.portshare.rpc.FrameDecoder;
import io.portshare.rpc.Frames;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import java.util.ArrayDeque;

/**
 * One client connection to the RPC echo service. Requests go out in order, at most
 * {@code pipelineDepth} unanswered at a time (the rest wait here); each answer is compared byte
 * for byte with its request. Methods may be called from any thread; the work runs on the
 * connection's event loop.
 */
public final class RpcConnection {

  /** The connection closed before the request was answered. */
  public static final class ClosedException extends VertxException {
    ClosedException(String message, Throwable cause) {
      super(message, cause, true);
    }
  }

  private final NetSocketInternal socket;
  private final EventLoop loop;
  private final int pipelineDepth;
  private final ReplyHandler handler;
  // Event-loop state.
  private final ArrayDeque<Request> inFlight = new ArrayDeque<>();
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private Buffer lastFrame;
  private ByteBuf lastFrameDirect;
  private long sent;
  private long answered;
  private Throwable failure;

  private record Request(long number, ByteBuf frame, Promise<Void> promise) {}

  RpcConnection(NetSocketInternal socket, RpcClientOptions options) {
    this.socket = socket;
    ChannelHandlerContext vertxHandler = socket.channelHandlerContext();
    this.loop = vertxHandler.channel().eventLoop();
    this.pipelineDepth = options.getPipelineDepth();
    this.handler = new ReplyHandler(new FrameDecoder(options.getMaxPayload()));
    // The decoder sits in front of Vert.x's handler and consumes the bytes itself: answers are
    // compared where they lie in the read buffer, never copied.
    socket.exceptionHandler(t -> { });
    vertxHandler.pipeline().addBefore(vertxHandler.name(), "rpc-client", handler);
  }

  /** Sends {@code payload} as one frame; completes when its echo came back identical. */
  public Future<Void> send(Buffer payload) {
    return sendFrame(Frames.encode(payload));
  }

  /**
   * Sends an already encoded frame (see {@link Frames#encode}); completes when its echo came back
   * identical. The same frame may be sent again and again (a load generator does): it is copied to
   * native memory once, so it must not change after the first send.
   */
  public Future<Void> sendFrame(Buffer frame) {
    Promise<Void> promise = Promise.promise();
    if (loop.inEventLoop()) {
      enqueue(frame, promise);
    } else {
      loop.execute(() -> enqueue(frame, promise));
    }
    return promise.future();
  }

  /** Requests sent and not answered yet, plus those waiting for a pipeline slot. */
  public int pending() {
    return inFlight.size() + waiting.size();
  }

  /** Answers received and verified so far. */
  public long answered() {
    return answered;
  }

  public Future<Void> close() {
    return socket.close();
  }

  /** Called once, on the event loop, when the connection closed (by either side). */
  public RpcConnection closeHandler(io.vertx.core.Handler<Void> handler) {
    socket.closeHandler(handler);
    return this;
  }

  private void enqueue(Buffer frame, Promise<Void> promise) {
    if (failure != null || ctx == null || !ctx.channel().isActive()) {
      promise.fail(new ClosedException("connection closed", failure));
      return;
    }
    if (frame != lastFrame) {
      if (lastFrameDirect != null) {
        lastFrameDirect.release();
      }
      ByteBuf heap = ((BufferInternal) frame).getByteBuf();
      lastFrameDirect = ctx.alloc().directBuffer(heap.readableBytes()).writeBytes(heap);
      lastFrame = frame;
    }
    Request r = new Request(sent++, lastFrameDirect.retainedDuplicate(), promise);
    if (inFlight.size() < pipelineDepth) {
      write(r);
      if (!handler.inRead) {
        ctx.flush();
      }
    } else {
      waiting.add(r);
    }
  }

  private void write(Request r) {
    inFlight.add(r);
    ctx.write(r.frame.retainedDuplicate(), ctx.voidPromise());
  }

  private void failAll(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    Request r;
    while ((r = inFlight.poll()) != null) {
      r.frame.release();
      r.promise.tryFail(cause);
    }
    while ((r = waiting.poll()) != null) {
      r.frame.release();
      r.promise.tryFail(cause);
    }
    if (lastFrameDirect != null) {
      lastFrameDirect.release();
      lastFrameDirect = null;
      lastFrame = null;
    }
  }

  /** Decodes answers, checks them, and refills the pipeline from the waiting requests. */
  private final class ReplyHandler extends ChannelInboundHandlerAdapter implements FrameDecoder.FrameHandler {

    private final FrameDecoder decoder;
    boolean inRead;

    ReplyHandler(FrameDecoder decoder) {
      this.decoder = decoder;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext c) {
      ctx = c;
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
      if (!(msg instanceof ByteBuf)) {
        c.fireChannelRead(msg);
        return;
      }
      ByteBuf in = (ByteBuf) msg;
      inRead = true;
      try {
        if (!decoder.decode(in, this)) {
          fail(new VertxException("answer longer than " + decoder.maxPayload() + " bytes", true));
        }
      } finally {
        in.release();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
      inRead = false;
      c.flush();
      c.fireChannelReadComplete();
    }

    @Override
    public void onFrame(ByteBuf buf, int frameIndex, int payloadLength) {
      Request r = inFlight.poll();
      if (r == null) {
        fail(new VertxException("an answer arrived with no request outstanding", true));
        return;
      }
      int frameLength = Frames.HEADER_LENGTH + payloadLength;
      ByteBuf sentFrame = r.frame;
      if (frameLength != sentFrame.readableBytes()) {
        sentFrame.release();
        EchoMismatchException e = new EchoMismatchException(r.number, "length " + payloadLength + ", sent "
            + (sentFrame.readableBytes() - Frames.HEADER_LENGTH));
        r.promise.fail(e);
        fail(e);
        return;
      }
      boolean same = ByteBufUtil.equals(buf, frameIndex, sentFrame, sentFrame.readerIndex(), frameLength);
      sentFrame.release();
      if (!same) {
        EchoMismatchException e = new EchoMismatchException(r.number, "payload bytes differ");
        r.promise.fail(e);
        fail(e);
        return;
      }
      answered++;
      Request next = waiting.poll();
      if (next != null) {
        write(next);
      }
      r.promise.complete();
    }

    private void fail(Throwable cause) {
      failAll(cause);
      ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
      failAll(new ClosedException("connection failed: " + cause.getMessage(), cause));
      c.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
      decoder.release();
      failAll(new ClosedException("connection closed by the server", null));
      c.fireChannelInactive();
    }
  }
}
