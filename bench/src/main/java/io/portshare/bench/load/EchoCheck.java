package io.portshare.bench.load;

import io.portshare.rpc.client.Frames;
import io.portshare.rpc.client.RpcClient;
import io.portshare.rpc.client.RpcClientOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Before a run against a server the bench did not start: one frame of the run's size, sent with
 * the RPC client and checked byte for byte. A wrong port, a server that does not speak the
 * protocol or one that answers wrongly is said in one line, instead of a run that counts nothing
 * but errors.
 */
public final class EchoCheck {

  private static final int TIMEOUT_SECONDS = 10;

  private EchoCheck() {}

  /** Null when {@code host:port} echoed a {@code size}-byte frame; otherwise what went wrong. */
  public static String problem(String host, int port, int size) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    try {
      RpcClient client = RpcClient.create(vertx, new RpcClientOptions().setMaxPayload(Math.max(size, 1 << 20)));
      client.connect(port, host)
          .compose(conn -> conn.sendFrame(Frames.encodePattern(size)).eventually(conn::close))
          .toCompletionStage().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause().getMessage();
    } catch (TimeoutException e) {
      return "no answer in " + TIMEOUT_SECONDS + " s";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } finally {
      vertx.close();
    }
  }
}
