package io.portshare.statics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.portshare.runtime.Outbound;
import java.util.function.Supplier;

/**
 * The HTTP connections of one event loop: the pipeline each gets on arrival, and the visit of the
 * runtime's sweep that closes those whose request head has taken longer than the header timeout,
 * and those idle longer than the idle timeout. One sweep per event loop, no timer per connection.
 *
 * <p>The pipeline: the {@link RequestDecoder}, the {@link HeadGuard}, the {@link ConnectionAgeLimit}
 * when connections age out, and the {@link FileExchange}; with --no-sendfile a ChunkedWriteHandler
 * first, so that every answer, a refusal included, leaves behind the file chunks before it.
 */
final class OpenConnections {

  /** What each connection's pipeline is built with. */
  record Limits(int maxUri, int maxHeaderSize, long headerTimeoutMillis, long idleTimeoutMillis) {}

  private final Limits limits;
  private final HttpDecoderConfig decoding;
  private final FileAnswers answers;
  /** The meters timeouts and refused heads count in: warm-up ones before ready, then the service's. */
  /** The meters answers count in: warm-up ones until the runtime's warm-up has ended (ServiceContext.warmUpSplit). */
  private final Supplier<StaticMetrics> metrics;

  OpenConnections(Limits limits, FileAnswers answers, Supplier<StaticMetrics> metrics) {
    this.limits = limits;
    this.decoding = RequestDecoder.config(limits.maxUri(), limits.maxHeaderSize());
    this.answers = answers;
    this.metrics = metrics;
  }


  /**
   * Builds this new connection's pipeline, before it reads a byte: {@code lifetimeNanos} 0 lets it
   * live as long as its peer wants.
   */
  void add(Channel channel, long lifetimeNanos) {
    ChannelPipeline pipeline = channel.pipeline();
    RequestDecoder decoder = new RequestDecoder(channel, decoding);
    if (answers.copiesFiles()) {
      pipeline.addLast("chunks", new ChunkedWriteHandler());
    }
    pipeline.addLast("decoder", decoder);
    pipeline.addLast("guard", new HeadGuard(metrics.get()));
    if (lifetimeNanos > 0) {
      pipeline.addLast("age", new ConnectionAgeLimit(lifetimeNanos));
    }
    pipeline.addLast("exchange", new FileExchange(answers, decoder));
  }

  /**
   * Closes this connection if its request head began more than the header timeout before
   * {@code now}, or if it has read nothing for the idle timeout and sent nothing either.
   */
  void visit(Channel channel, long now) {
    RequestDecoder d = channel.pipeline().get(RequestDecoder.class);
    if (d == null) {
      return;
    }
    boolean late = d.overdue(now, limits.headerTimeoutMillis());
    if (late || (d.headStartedAt == 0 && now - d.lastReadAt > limits.idleTimeoutMillis() && idle(d, now))) {
      if (late) {
        d.headStartedAt = 0;
        metrics.get().headerTimeouts++;
      } else {
        metrics.get().idleTimeouts++;
      }
      channel.close();
    }
  }

  /**
   * Whether a connection that has read nothing for the idle timeout is idle: everything written
   * has gone to the socket, or what is left has not moved for the idle timeout (a client that stopped
   * reading). A slow download that still moves is not idle.
   */
  private boolean idle(RequestDecoder d, long now) {
    return Outbound.isEmpty(d.channel) || d.stalled(now, limits.idleTimeoutMillis());
  }
}
