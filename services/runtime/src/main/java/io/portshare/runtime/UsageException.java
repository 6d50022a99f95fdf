package io.portshare.runtime;

import io.portshare.runtime.config.ExitCodes;

/**
 * A bad flag, environment value or config key: the launcher prints the message as one line and exits
 * {@link ExitCodes#USAGE}.
 */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message, null, false, false);
  }
}
