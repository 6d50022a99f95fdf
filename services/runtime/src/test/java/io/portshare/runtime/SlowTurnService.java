package io.portshare.runtime;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.Optional;

/**
 * A test echo service whose every read holds its event loop for a while, as a cold event loop's
 * first turns do on a busy machine (interpreted code, class loading): a turn of the loop that
 * reads N connections takes N times that long.
 */
final class SlowTurnService extends TestService {

  private final Duration perRead;

  SlowTurnService(Duration perRead) {
    super("slow-turn", "echoes, holding its event loop on every read");
    this.perRead = perRead;
  }

  @Override
  public Optional<WarmUpExchange> warmUp(Settings settings) {
    return Optional.empty();
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new ServiceVerticle() {
      @Override
      public Future<?> start() {
        return service.listen(vertx.createNetServer(service.netServerOptions()).connectHandler(socket ->
            socket.handler(data -> {
              try {
                Thread.sleep(perRead.toMillis());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              socket.write(data);
            })));
      }
    };
  }
}
