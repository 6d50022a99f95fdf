package io.portshare.runtime;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar of durations and sizes, for every command: the services' options, the benchmark
 * and the soak. Durations are a whole number with {@code ms}, {@code s}, {@code m} or {@code h}
 * ({@code s} when none); sizes a whole number of bytes with an optional binary unit ({@code KiB},
 * {@code MiB}, {@code GiB}; {@code k}, {@code kb}, {@code m} ... mean the same).
 */
public final class Units {

  /** What a bad duration is told it should look like. */
  public static final String DURATION_EXAMPLES = "a duration such as 500ms, 10s, 2m";
  /** What a bad size is told it should look like. */
  public static final String SIZE_EXAMPLES = "a size in bytes such as 1024, 64KiB, 1MiB";

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?", Pattern.CASE_INSENSITIVE);

  private Units() {}

  /** Parses a duration, or throws IllegalArgumentException naming the text and the grammar. */
  public static Duration duration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("invalid duration \"" + text + "\"; expected " + DURATION_EXAMPLES);
    }
    try {
      long n = Long.parseLong(m.group(1));
      switch (m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT)) {
        case "ms":
          return Duration.ofMillis(n);
        case "m":
          return Duration.ofMinutes(n);
        case "h":
          return Duration.ofHours(n);
        default:
          return Duration.ofSeconds(n);
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("invalid duration \"" + text + "\"; expected " + DURATION_EXAMPLES, e);
    }
  }

  /**
   * A duration as this grammar writes it ({@code 500ms}, {@code 75s}, {@code 10m}, {@code 1h}):
   * seconds below ten minutes, else the largest unit that keeps it whole; {@link #duration} reads it
   * back as the same value.
   */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    long seconds = ms / 1000;
    if (seconds != 0 && seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds >= 600 && seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }

  /** Parses a size in bytes, or throws IllegalArgumentException naming the text and the grammar. */
  public static long size(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("invalid size \"" + text + "\"; expected " + SIZE_EXAMPLES);
    }
    try {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
      long mult = unit.startsWith("g") ? 1L << 30 : unit.startsWith("m") ? 1L << 20 : unit.startsWith("k") ? 1L << 10 : 1L;
      return Math.multiplyExact(n, mult);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("invalid size \"" + text + "\"; expected " + SIZE_EXAMPLES, e);
    }
  }
}
