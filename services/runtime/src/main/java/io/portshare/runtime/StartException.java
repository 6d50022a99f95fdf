package io.portshare.runtime;

/**
 * Thrown when a service cannot start for a reason of the machine or of what it was given to run on
 * (the port is taken, out of file descriptors, a listen the runtime refuses): the launcher exits 1
 * with its message as one line. A bad value of an option is a {@link UsageException} instead (exit 2).
 */
public final class StartException extends RuntimeException {

  public StartException(String message, Throwable cause) {
    super(message, cause);
  }
}
