package io.portshare.kit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Keeps every WARN and ERROR event logged anywhere in this JVM while open: an exception that
 * escapes a handler ends up here (Netty's tail handler, Vert.x's unhandled-exception log).
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

  private final List<String> events = new ArrayList<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  public static LogCapture attach() {
    LogCapture c = new LogCapture();
    c.setContext(c.root.getLoggerContext());
    c.start();
    c.root.addAppender(c);
    return c;
  }

  @Override
  protected synchronized void append(ILoggingEvent e) {
    if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
      String thrown = e.getThrowableProxy() == null ? "" : " / " + e.getThrowableProxy().getClassName()
          + ": " + e.getThrowableProxy().getMessage();
      events.add(e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage() + thrown);
    }
  }

  public synchronized List<String> warningsAndErrors() {
    return new ArrayList<>(events);
  }

  @Override
  public void close() {
    root.detachAppender(this);
    stop();
  }
}
