package io.portshare.runtime.config;

import java.util.Locale;

/** How log lines are written ({@code --log-format}). */
public enum LogFormat {
  TEXT,
  /** One JSON object per line, for a log collector. */
  JSON;

  public static LogFormat of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
