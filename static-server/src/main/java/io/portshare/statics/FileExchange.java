package io.portshare.statics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.portshare.runtime.AnswerTimer;
import io.portshare.runtime.DrainEvent;
import io.portshare.runtime.Outbound;

/**
 * The exchanges of one connection, the last handler of its pipeline: each request is answered by
 * {@link FileAnswers} as soon as its head is in, so pipelined requests are answered in order; its
 * body is read and dropped. Answers are flushed once per read. Keep-alive is as HTTP/1.0 and 1.1
 * say: a last answer says {@code connection: close}, and the connection closes once it is sent and
 * the request's body read.
 *
 * <p>At drain ({@link DrainEvent}) an idle connection closes once what it has written is sent; one
 * with a request arriving answers it with {@code connection: close} and then closes.
 *
 * <p>Each answer is timed from the end of its request head (when the decoder hands it here) to its
 * last byte written, sent by sendfile or from memory alike, by an {@link AnswerTimer}.
 */
final class FileExchange extends ChannelInboundHandlerAdapter {

  private final FileAnswers answers;
  private final RequestDecoder decoder;
  /** Between a request's head and the end of its body. */
  private boolean inRequest;
  /** The answer written was the connection's last: close when the request's body has been read. */
  private boolean closeAfterRequest;
  private boolean draining;
  /** Closing: nothing more is answered. */
  private boolean closing;
  private AnswerTimer timer;

  FileExchange(FileAnswers answers, RequestDecoder decoder) {
    this.answers = answers;
    this.decoder = decoder;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    timer = new AnswerTimer(ctx.channel());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (closing) {
        return;
      }
      if (msg instanceof HttpRequest req) {
        long headEnd = System.nanoTime();
        inRequest = true;
        boolean keepAlive = !draining && HttpUtil.isKeepAlive(req);
        answers.answer(ctx, req, keepAlive);
        timer.written(ctx, headEnd, answers.latency());
        closeAfterRequest = !keepAlive;
      }
      if (msg instanceof LastHttpContent) {
        inRequest = false;
        if (closeAfterRequest) {
          close(ctx);
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt != DrainEvent.INSTANCE) {
      super.userEventTriggered(ctx, evt);
      return;
    }
    draining = true;
    if (inRequest) {
      closeAfterRequest = true; // answered already: close once its body is read
    } else if (decoder.headStartedAt == 0 && !closing) {
      close(ctx); // idle: nothing arriving, so nothing to answer
    } // else a head is arriving: its answer will be the last
  }

  /** Closes once everything written is sent: at once when the flush sent it all, as it mostly does. */
  private void close(ChannelHandlerContext ctx) {
    closing = true;
    ctx.flush();
    if (!answers.copiesFiles() && Outbound.isEmpty(ctx.channel())) {
      ctx.close();
    } else {
      // Left in the socket's way (or in the ChunkedWriteHandler's queue): close behind it.
      ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }

  /** A read or write that failed (a reset, a file gone): this connection ends, quietly. */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
