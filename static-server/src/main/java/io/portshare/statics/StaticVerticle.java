package io.portshare.statics;

import io.portshare.web.internal.FileCache;
import io.netty.channel.Channel;
import io.portshare.runtime.ServiceContext;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One instance of the static service: a listener whose connections get a Netty pipeline of this
 * service's own, served on this instance's event loop, answering GET and HEAD from its own
 * {@link FileCache}. It wires the parts: {@link OpenConnections} builds each connection's pipeline
 * and sweeps slow heads and idle connections, {@link FileAnswers} answers requests.
 */
public final class StaticVerticle extends ServiceVerticle {

  private FileAnswers answers;
  private OpenConnections connections;
  /** Whether connections age out (--max-connection-age): each one's lifetime is then drawn as it arrives. */
  private boolean agesOut;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    Supplier<StaticMetrics> metrics = service.warmUpSplit(
        new StaticMetrics(service.registry(), Integer.toString(service.instance())), new StaticMetrics());
    answers = new FileAnswers(s.router(), s.directoryListing(), s.sendfile(), s.cacheControl(), metrics);
    long headerTimeoutMillis = s.headerTimeout().toMillis();
    long idleTimeoutMillis = s.idleTimeout().toMillis();
    connections = new OpenConnections(new OpenConnections.Limits(s.maxUri(), s.maxHeaderSize(), headerTimeoutMillis,
        idleTimeoutMillis), answers, metrics);
    agesOut = !service.connectionLifetime().isZero();
    vertx.setPeriodic(1000, id -> answers.tick(System.currentTimeMillis()));
    Future<Void> listening = service.listen(service.netServerOptions(), this::initConnection);
    service.sweepConnections(ServiceContext.sweepPeriodFor(Duration.ofMillis(Math.min(headerTimeoutMillis,
        idleTimeoutMillis))), c -> connections.visit(c, System.currentTimeMillis()));
    return listening;
  }

  /** Closes the files kept open for sendfile (a region still being sent closes its own when done). */
  @Override
  public Future<?> stop() throws Exception {
    if (answers != null) {
      answers.close();
    }
    return super.stop();
  }

  /** On this instance's event loop, before the connection reads a byte. */
  private void initConnection(Channel connection) {
    connections.add(connection, agesOut ? service.connectionLifetime().toNanos() : 0);
  }
}
