package io.portshare.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One setting of a service: a flag {@code --name}, a config-file key {@code name}, an environment
 * variable {@code PORTSHARE_NAME}. Its default is stated in {@code --help}.
 */
public record Option(String name, Type type, String defaultValue, String help, List<String> choices) {

  /** How a raw string becomes a value, and what a bad one is told. */
  public enum Type {
    INT("an integer"),
    PORT("a port number 0-65535"),
    DURATION("a duration such as 500ms, 10s, 2m"),
    SIZE("a size in bytes such as 1024, 64KiB, 1MiB"),
    STRING("a string"),
    PATH("a path"),
    CHOICE("one of"),
    FLAG("true or false");

    final String expected;

    Type(String expected) {
      this.expected = expected;
    }
  }

  public Option {
    choices = choices == null ? List.of() : List.copyOf(choices);
  }

  public static Option integer(String name, int defaultValue, String help) {
    return new Option(name, Type.INT, Integer.toString(defaultValue), help, null);
  }

  public static Option port(String name, int defaultValue, String help) {
    return new Option(name, Type.PORT, Integer.toString(defaultValue), help, null);
  }

  public static Option duration(String name, String defaultValue, String help) {
    return new Option(name, Type.DURATION, defaultValue, help, null);
  }

  public static Option size(String name, String defaultValue, String help) {
    return new Option(name, Type.SIZE, defaultValue, help, null);
  }

  public static Option string(String name, String defaultValue, String help) {
    return new Option(name, Type.STRING, defaultValue, help, null);
  }

  public static Option path(String name, String defaultValue, String help) {
    return new Option(name, Type.PATH, defaultValue, help, null);
  }

  public static Option choice(String name, String defaultValue, String help, String... choices) {
    return new Option(name, Type.CHOICE, defaultValue, help, List.of(choices));
  }

  /** A switch: {@code --name} alone means true; off unless given. */
  public static Option flag(String name, String help) {
    return new Option(name, Type.FLAG, "false", help, null);
  }

  /** The environment variable that sets this option. */
  public String envName() {
    return "PORTSHARE_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)?");
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?", Pattern.CASE_INSENSITIVE);

  /** Parses a raw value, or throws a {@link UsageException} naming the key, the value and where it came from. */
  Object parse(String raw, String source) {
    String v = raw.trim();
    try {
      switch (type) {
        case INT:
          return Integer.parseInt(v);
        case PORT: {
          int p = Integer.parseInt(v);
          if (p < 0 || p > 65535) {
            throw bad(raw, source);
          }
          return p;
        }
        case DURATION: {
          Matcher m = DURATION.matcher(v);
          if (!m.matches()) {
            throw bad(raw, source);
          }
          long n = Long.parseLong(m.group(1));
          String unit = m.group(2) == null ? "s" : m.group(2);
          switch (unit) {
            case "ms":
              return Duration.ofMillis(n);
            case "m":
              return Duration.ofMinutes(n);
            case "h":
              return Duration.ofHours(n);
            default:
              return Duration.ofSeconds(n);
          }
        }
        case SIZE: {
          Matcher m = SIZE.matcher(v);
          if (!m.matches()) {
            throw bad(raw, source);
          }
          long n = Long.parseLong(m.group(1));
          String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
          long mult = unit.startsWith("g") ? 1L << 30 : unit.startsWith("m") ? 1L << 20 : unit.startsWith("k") ? 1L << 10 : 1L;
          return Math.multiplyExact(n, mult);
        }
        case CHOICE:
          if (!choices.contains(v)) {
            throw bad(raw, source);
          }
          return v;
        case FLAG:
          if (v.equalsIgnoreCase("true") || v.equals("1") || v.equalsIgnoreCase("yes")) {
            return Boolean.TRUE;
          }
          if (v.equalsIgnoreCase("false") || v.equals("0") || v.equalsIgnoreCase("no")) {
            return Boolean.FALSE;
          }
          throw bad(raw, source);
        default:
          return raw;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw bad(raw, source);
    }
  }

  UsageException bad(String raw, String source) {
    String expected = type == Type.CHOICE ? "one of " + String.join("|", choices) : type.expected;
    return new UsageException("invalid value for " + name + ": \"" + raw + "\" (from " + source + "); expected " + expected);
  }
}
