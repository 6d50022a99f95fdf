package io.portshare.bench.load;

import java.io.IOException;
import java.net.ConnectException;
import java.util.Locale;

/** Why a transaction failed. */
public enum ErrorKind {
  CONNECT_REFUSED("connect-refused"),
  RESET("reset"),
  TIMEOUT("timeout"),
  WRONG_PAYLOAD("wrong-payload"),
  /** The peer closed the connection with a transaction unanswered. */
  CLOSED("closed"),
  /** An HTTP answer outside 2xx. */
  STATUS("non-2xx"),
  /** An HTTP body of another length than the file's, or cut short by a close. */
  SHORT_BODY("short-body"),
  /** An open-loop request due in the measured window that had no answer when the run ended. */
  UNANSWERED("unanswered"),
  OTHER("other");

  private final String label;

  ErrorKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** Sorts a socket exception into a kind; netty's native exceptions only carry errno in the message. */
  public static ErrorKind of(Throwable t) {
    String msg = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
    if (t instanceof ConnectException || msg.contains("connection refused")) {
      return msg.contains("timed out") ? TIMEOUT : CONNECT_REFUSED;
    }
    if (msg.contains("reset")) {
      return RESET;
    }
    if (msg.contains("timed out") || msg.contains("timeout")) {
      return TIMEOUT;
    }
    if (t instanceof IOException && msg.contains("broken pipe")) {
      return RESET;
    }
    return OTHER;
  }
}
