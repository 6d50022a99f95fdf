package io.portshare.runtime.impl;

import io.portshare.runtime.StartException;
import io.portshare.runtime.net.FileLimit;
import io.vertx.core.Future;
import java.net.BindException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A start's waits, and the one clear line each way a start fails for a reason of the machine turns into. */
final class StartFailures {

  private static final long START_TIMEOUT_SECONDS = 60;

  private StartFailures() {}

  /** The clear start error when "Too many open files" is anywhere in the causes. */
  static Optional<StartException> outOfDescriptors(Throwable failure, String what) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("Too many open files")) {
        return Optional.of(new StartException(what + ": out of file descriptors (open files limit "
            + FileLimit.describe() + "); raise the limit (ulimit -n) or lower --instances", failure));
      }
    }
    return Optional.empty();
  }

  /** Waits for {@code f}, part of starting {@code what}; its failure as the one line that says why. */
  static <T> T await(Future<T> f, String what) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String msg = String.valueOf(cause.getMessage());
      Optional<StartException> outOfDescriptors = outOfDescriptors(cause, "cannot start " + what);
      if (outOfDescriptors.isPresent()) {
        throw outOfDescriptors.get();
      }
      if (cause instanceof BindException || msg.contains("Address already in use")) {
        throw new StartException("cannot listen on " + what + ": address already in use", cause);
      }
      if (msg.contains("Permission denied") || msg.contains("Cannot assign requested address")) {
        throw new StartException("cannot listen on " + what + ": " + msg.replaceFirst(".*: ", ""), cause);
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new StartException("failed to start " + what + ": " + cause, cause);
    } catch (TimeoutException e) {
      throw new StartException("timed out starting " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartException("interrupted starting " + what, e);
    }
  }
}
