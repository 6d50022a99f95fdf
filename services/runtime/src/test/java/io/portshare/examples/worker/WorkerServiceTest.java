package io.portshare.examples.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A service's verticle may deploy verticles of its own: a worker answers on a worker thread, in every mode. */
class WorkerServiceTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void aWorkerVerticleTheServiceDeployedAnswersOnAWorkerThread() throws Exception {
    for (String mode : new String[] {"shared", "reuseport"}) {
      ServiceRuntime rt = runtimes.start(new WorkerService(), "--port", "0", "--admin-port", "0", "--host",
          "127.0.0.1", "--instances", "2", "--mode", mode);
      String answer = HttpWire.get(rt.port(), "/job").text();
      assertThat(answer).as("in %s", mode).startsWith("worker on vert.x-worker-thread-").endsWith("for /job");
      rt.stop(java.time.Duration.ofSeconds(1));
    }
  }
}
