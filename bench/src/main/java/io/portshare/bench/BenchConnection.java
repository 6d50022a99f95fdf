package io.portshare.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.AsyncResult;
import io.vertx.core.net.NetSocket;
import io.vertx.core.internal.net.NetSocketInternal;

/**
 * One client connection of a load run: connects, lets the subclass decide when requests go out,
 * checks every reply byte for byte against the request, and reconnects after
 * {@code transactionsPerConnection} answers or an error. Runs on one event loop only.
 *
 * <p>It reads Netty's buffers through {@code messageHandler} and writes through the channel
 * context directly: the public {@code NetSocket} API copies every read into a fresh heap buffer
 * and allocates a promise per write, which a load generator that must outrun the server cannot
 * afford.
 */
abstract class BenchConnection {

  private static final int IDLE = 0;
  private static final int CONNECTING = 1;
  private static final int OPEN = 2;
  private static final int CLOSING = 3;
  /** Back-off after a failed connect, so a refused port does not turn into a busy loop. */
  private static final long RECONNECT_DELAY_MS = 20;

  final LoadVerticle loop;
  final LoopStats stats;
  final int perConnection;
  /** The request frame; the echo reply must equal it byte for byte. Unreleasable, shared read-only. */
  final ByteBuf frame;
  final int frameLength;

  private NetSocketInternal socket;
  ChannelHandlerContext channel;
  private int state = IDLE;
  private boolean stopped;
  long connectStart;
  long lastActivity;
  int sentOnConnection;
  int answeredOnConnection;
  /** Bytes of the reply being read that have arrived so far. */
  private int received;

  BenchConnection(LoadVerticle loop, ByteBuf frame, int perConnection) {
    this.loop = loop;
    this.stats = loop.stats;
    this.frame = frame;
    this.frameLength = frame.readableBytes();
    this.perConnection = perConnection;
  }

  /** Called once the connection is open and nothing is in flight. */
  abstract void opened(long now);

  /** Called for each reply that matched its request. */
  abstract void answered(long now);

  final boolean isOpen() {
    return state == OPEN;
  }

  final void connect() {
    long now = System.nanoTime();
    if (stopped || stats.clock.over(now)) {
      return;
    }
    state = CONNECTING;
    connectStart = now;
    loop.client.connect(loop.port, loop.host).onComplete(this::connected);
  }

  private void connected(AsyncResult<NetSocket> ar) {
    long now = System.nanoTime();
    if (ar.failed()) {
      state = IDLE;
      stats.error(ErrorKind.of(ar.cause()), now);
      if (!stopped) {
        loop.later(RECONNECT_DELAY_MS, this::connect);
      }
      return;
    }
    NetSocketInternal s = (NetSocketInternal) ar.result();
    if (stopped) {
      s.close();
      return;
    }
    socket = s;
    channel = s.channelHandlerContext();
    s.messageHandler(this::onMessage);
    s.exceptionHandler(this::onException);
    s.closeHandler(v -> onClosed());
    state = OPEN;
    sentOnConnection = 0;
    answeredOnConnection = 0;
    received = 0;
    lastActivity = now;
    opened(now);
  }

  private void onMessage(Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    ByteBuf buf = (ByteBuf) msg;
    try {
      if (state != OPEN) {
        return;
      }
      long now = System.nanoTime();
      lastActivity = now;
      int index = buf.readerIndex();
      int end = buf.writerIndex();
      while (index < end) {
        if (answeredOnConnection >= sentOnConnection) {
          fail(ErrorKind.WRONG_PAYLOAD, now); // bytes nobody asked for
          return;
        }
        int n = Math.min(end - index, frameLength - received);
        if (!ByteBufUtil.equals(frame, frame.readerIndex() + received, buf, index, n)) {
          fail(ErrorKind.WRONG_PAYLOAD, now);
          return;
        }
        received += n;
        index += n;
        if (received == frameLength) {
          received = 0;
          answeredOnConnection++;
          answered(now);
          if (state != OPEN) {
            return;
          }
        }
      }
    } finally {
      buf.release();
    }
  }

  private void onException(Throwable t) {
    if (state == OPEN) {
      fail(ErrorKind.of(t), System.nanoTime());
    }
  }

  private void onClosed() {
    long now = System.nanoTime();
    if (state == OPEN && answeredOnConnection < sentOnConnection) {
      stats.error(ErrorKind.CLOSED, now);
    }
    socket = null;
    channel = null;
    state = IDLE;
    connect();
  }

  /** Counts an error and drops the connection; the close handler reconnects. */
  final void fail(ErrorKind kind, long now) {
    stats.error(kind, now);
    close();
  }

  /** Closes after the last transaction of this connection; the close handler reconnects. */
  final void close() {
    if (socket != null && state != CLOSING) {
      state = CLOSING;
      socket.close();
    }
  }

  /** A reply has been outstanding with no byte arriving for longer than the timeout. */
  final void checkTimeout(long now, long timeoutNanos) {
    if (state == OPEN && answeredOnConnection < sentOnConnection && now - lastActivity > timeoutNanos) {
      fail(ErrorKind.TIMEOUT, now);
    }
  }

  final void stop() {
    stopped = true;
    if (socket != null) {
      state = CLOSING;
      socket.close();
    }
  }
}
