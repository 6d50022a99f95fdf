package io.portshare.runtime;

/**
 * A bad flag, environment value or config key: the launcher prints the message as one line and exits
 * 2 (the launcher's usage exit code).
 */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message, null, false, false);
  }
}
