package io.portshare.runtime.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One supervised process serving the socket of its slot. */
final class SupervisedChild {

  private static final Logger LOG = LoggerFactory.getLogger(SupervisedChild.class);

  final int slot;
  final Process process;
  final long startedAt = System.nanoTime();
  volatile boolean ready;
  volatile boolean retiring;
  /** It asked for its sockets: its stop handler is set, a SIGTERM stops it cleanly. */
  private boolean handedOver;
  /** A stop asked for before it had its handler, sent once it asks for its sockets. */
  private boolean stopPending;

  SupervisedChild(int slot, Process process) {
    this.slot = slot;
    this.process = process;
  }

  synchronized void handedOver() {
    handedOver = true;
    if (stopPending) {
      sigterm();
    }
  }

  synchronized boolean isHandedOver() {
    return handedOver;
  }

  /**
   * SIGTERM, now or, for a child whose JVM has not yet set its handler (it has not asked for its
   * sockets), as soon as it asks: the JVM's own handling before that would exit 143 unclean.
   */
  synchronized void terminate() {
    if (handedOver) {
      sigterm();
    } else {
      stopPending = true;
    }
  }

  /** Through its handle: Process.destroy() would also close the pipe its drain logs to. */
  private void sigterm() {
    process.toHandle().destroy();
  }

  /** Stops it, unless it was stopped already (a replaced one draining). */
  void stop() {
    if (!retiring) {
      retiring = true;
      terminate();
    }
  }

  synchronized String state() {
    return retiring ? "draining" : ready ? "serving" : handedOver ? "starting or warming up"
        : "starting (no sockets yet)";
  }

  long pid() {
    return process.pid();
  }

  /** The child's output, each line prefixed with its service and slot. */
  void pump(String service, PrintStream out) {
    String prefix = "[" + service + "#" + slot + "] ";
    Thread t = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          out.println(prefix + line);
        }
      } catch (IOException e) {
        // The child is gone; its exit code says the rest.
      }
    }, "supervisor-output-" + process.pid());
    t.setDaemon(true);
    t.start();
  }

  /** Waits for it to exit after a drain of at most {@code drain}; SIGKILL if it overstays by 30 s. */
  boolean awaitExit(Duration drain, String service) throws InterruptedException {
    if (!process.waitFor(drain.toMillis() + 30_000, TimeUnit.MILLISECONDS)) {
      LOG.warn("{} #{} (pid {}) did not exit after its drain; killing it", service, slot, pid());
      process.destroyForcibly();
      process.waitFor();
      return false;
    }
    return true;
  }

  /** Waits until it has taken its sockets, or {@code deadline} (System.nanoTime) passes: then SIGKILL. */
  void awaitHandedOver(long deadline, String service) throws InterruptedException {
    while (!isHandedOver() && process.isAlive()) {
      if (System.nanoTime() > deadline) {
        LOG.warn("{} #{} (pid {}) did not ask for its sockets; killing it", service, slot, pid());
        process.destroyForcibly();
        process.waitFor();
        return;
      }
      process.waitFor(50, TimeUnit.MILLISECONDS);
    }
  }
}
