package io.portshare.bench;

import java.time.Duration;
import java.util.Locale;

/** {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT5S}). */
final class Durations {

  private Durations() {}

  static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("pt")) {
        return Duration.parse(text.trim());
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      switch (t.charAt(t.length() - 1)) {
        case 's':
          return Duration.ofSeconds(n);
        case 'm':
          return Duration.ofMinutes(n);
        case 'h':
          return Duration.ofHours(n);
        default:
          break;
      }
    } catch (RuntimeException e) {
      // fall through to the one message
    }
    throw new IllegalArgumentException("invalid duration \"" + text + "\"; expected e.g. 500ms, 5s, 2m");
  }
}
