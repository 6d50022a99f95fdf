package io.portshare.runtime.net;

import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.TestService;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * A test service that tells each client where it landed: it answers every new connection with one
 * line {@code loop=I loopCpus=L acceptorCpus=A workerCpus=W} and closes it. L, A and W are the
 * kernel's {@code Cpus_allowed_list} of the event-loop thread serving the connection, of its Vert.x
 * acceptor thread and of a worker thread, read from {@code /proc/thread-self/status} on those very threads.
 */
final class CpuProbeService extends TestService {

  CpuProbeService() {
    super("cpu-probe", "answers each connection with the loop and CPUs serving it");
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new ProbeVerticle();
  }

  /** {@code Cpus_allowed_list} of the calling thread, e.g. {@code 0-1} or {@code 1}. */
  static String cpusAllowedList(String statusFile) {
    try {
      return Files.readAllLines(Paths.get(statusFile)).stream()
          .filter(l -> l.startsWith("Cpus_allowed_list:"))
          .map(l -> l.substring("Cpus_allowed_list:".length()).trim())
          .findFirst().orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final class ProbeVerticle extends ServiceVerticle {

    @Override
    public Future<?> start() {
      Future<String> workerCpus = vertx.executeBlocking(() -> cpusAllowedList("/proc/thread-self/status"), false);
      return workerCpus.compose(worker -> service.listen(vertx.createNetServer(service.netServerOptions())
          .connectHandler(socket -> {
            // A test probe: small /proc reads on the event loop and the acceptor are fine here.
            String loop = cpusAllowedList("/proc/thread-self/status");
            ((VertxInternal) vertx).acceptorEventLoopGroup().next().execute(() -> {
              String acceptor = cpusAllowedList("/proc/thread-self/status");
              context.runOnContext(v -> socket.end(Buffer.buffer("loop=" + service.instance()
                  + " loopCpus=" + loop + " acceptorCpus=" + acceptor + " workerCpus=" + worker + "\n")));
            });
          })));
    }
  }
}
