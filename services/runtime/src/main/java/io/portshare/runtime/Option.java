package io.portshare.runtime;

import java.util.List;
import java.util.Locale;

/**
 * One setting of a service: a flag {@code --name}, a config-file key {@code name}, an environment
 * variable {@code PORTSHARE_NAME}. Its default is stated in {@code --help}, with {@code defaultNote}
 * saying where it comes from when that is not a constant. An integer may have bounds ({@link #within}),
 * checked where every value is parsed.
 */
public record Option(String name, Type type, String defaultValue, String help, List<String> choices,
    String defaultNote, int min, int max) {

  /** How a raw string becomes a value, and what a bad one is told. */
  public enum Type {
    INT("an integer"),
    PORT("a port number 0-65535"),
    DURATION(Units.DURATION_EXAMPLES),
    SIZE(Units.SIZE_EXAMPLES),
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
    defaultNote = defaultNote == null ? "" : defaultNote;
  }

  private Option(String name, Type type, String defaultValue, String help, List<String> choices) {
    this(name, type, defaultValue, help, choices, "", Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  /** This option with a note on where its default comes from, shown after the default in --help. */
  public Option withDefaultNote(String note) {
    return new Option(name, type, defaultValue, help, choices, note, min, max);
  }

  /** This integer option with bounds: a value outside {@code min..max} fails as any bad value does. */
  public Option within(int min, int max) {
    if (type != Type.INT) {
      throw new IllegalArgumentException(name + " is not an integer option");
    }
    return new Option(name, type, defaultValue, help, choices, defaultNote, min, max);
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
    return flag(name, false, help);
  }

  /** A switch with a default: {@code --name} alone means true, {@code --name=false} turns it off. */
  public static Option flag(String name, boolean defaultValue, String help) {
    return new Option(name, Type.FLAG, Boolean.toString(defaultValue), help, null);
  }

  /** The flag as --help and docs/configuration.md write it: {@code --name} and what its value looks like. */
  public String synopsis() {
    return "--" + name + switch (type) {
      case FLAG -> Boolean.parseBoolean(defaultValue) ? "[=true|false]" : "";
      case CHOICE -> " " + String.join("|", choices);
      case DURATION -> " DURATION";
      case SIZE -> " BYTES";
      case PATH -> " PATH";
      case STRING -> " TEXT";
      case INT, PORT -> " N";
    };
  }

  /** The environment variable that sets this option. */
  public String envName() {
    return "PORTSHARE_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /** Parses a raw value, or throws a {@link UsageException} naming the key, the value and where it came from. */
  Object parse(String raw, String source) {
    String v = raw.trim();
    try {
      switch (type) {
        case INT: {
          int n = Integer.parseInt(v);
          if (n < min || n > max) {
            throw invalid(raw, source, min + ".." + max);
          }
          return n;
        }
        case PORT: {
          int p = Integer.parseInt(v);
          if (p < 0 || p > 65535) {
            throw bad(raw, source);
          }
          return p;
        }
        case DURATION:
          return Units.duration(v);
        case SIZE:
          return Units.size(v);
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
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw bad(raw, source);
    }
  }

  UsageException bad(String raw, String source) {
    return invalid(raw, source, type == Type.CHOICE ? "one of " + String.join("|", choices) : type.expected);
  }

  private UsageException invalid(String raw, String source, String expected) {
    return new UsageException("invalid value for " + name + ": \"" + raw + "\" (from " + source + "); expected " + expected);
  }
}
