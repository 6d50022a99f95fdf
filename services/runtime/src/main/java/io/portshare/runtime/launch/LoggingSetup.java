package io.portshare.runtime.launch;

import io.portshare.runtime.config.LogFormat;
import io.portshare.runtime.net.FileLimit;
import org.slf4j.Logger;

/** The launcher's logging: logback's configuration for the log format, and the open files limit said at start. */
final class LoggingSetup {

  private LoggingSetup() {}

  /** Picks logback's configuration for {@code format}; must run before the first logger exists. */
  static void configure(LogFormat format) {
    // logback reads this property once, at first use.
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile",
          format == LogFormat.JSON ? "portshare-logback-json.xml" : "portshare-logback.xml");
    }
  }

  /**
   * Every connection is a descriptor. HotSpot raises the soft limit to the hard one at start
   * (-XX:+MaxFDLimit, on by default); say what we got, since it caps open connections.
   */
  static void logFileLimit(Logger log) {
    String[] limit = FileLimit.read();
    if (limit != null) {
      log.info("open files limit: soft {} hard {} (each connection takes one)", limit[0], limit[1]);
      if (!limit[0].equals(limit[1])) {
        log.warn("open files soft limit {} is below the hard limit {}: start with -XX:+MaxFDLimit", limit[0], limit[1]);
      }
    }
  }
}
