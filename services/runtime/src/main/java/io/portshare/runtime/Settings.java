package io.portshare.runtime;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The resolved settings of one service: defaults &lt; config file &lt; {@code PORTSHARE_*} environment
 * &lt; command-line flags. Every value is parsed and checked here, so a bad one fails at start with
 * one line naming the key, the value and where it came from.
 */
public final class Settings {

  /** The option that names a config file; it cannot itself be set in the file. */
  public static final String CONFIG = "config";
  /** The config file's key for the service's own section: its verticle's {@code config()}, nested values allowed. */
  public static final String SERVICE_SECTION = "service";

  private final Map<String, Object> values;
  private final Map<String, String> sources;
  private final JsonObject serviceConfig;

  private Settings(Map<String, Object> values, Map<String, String> sources, JsonObject serviceConfig) {
    this.values = values;
    this.sources = sources;
    this.serviceConfig = serviceConfig;
  }

  /** Resolves the options against flags, the environment and the config file those name. */
  public static Settings resolve(List<Option> options, List<String> args, Map<String, String> env) {
    Map<String, Option> byName = new LinkedHashMap<>();
    for (Option o : options) {
      byName.put(o.name(), o);
    }
    Map<String, String> flags = parseFlags(byName, args);

    Map<String, String> raw = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    for (Option o : options) {
      raw.put(o.name(), o.defaultValue());
      sources.put(o.name(), "default");
    }
    String configFile = flags.containsKey(CONFIG) ? flags.get(CONFIG) : env.get(byName.get(CONFIG).envName());
    JsonObject serviceConfig = new JsonObject();
    if (configFile != null && !configFile.isBlank()) {
      Map<String, String> file = readConfigFile(Path.of(configFile), byName, serviceConfig);
      raw.putAll(file);
      file.keySet().forEach(k -> sources.put(k, "config file " + configFile));
    }
    for (Option o : options) {
      String v = env.get(o.envName());
      if (v != null) {
        raw.put(o.name(), v);
        sources.put(o.name(), o.envName());
      }
    }
    raw.putAll(flags);
    flags.keySet().forEach(k -> sources.put(k, "--" + k));

    Map<String, Object> values = new LinkedHashMap<>();
    for (Option o : options) {
      values.put(o.name(), o.parse(raw.get(o.name()), sources.get(o.name())));
    }
    return new Settings(Collections.unmodifiableMap(values), Collections.unmodifiableMap(sources), serviceConfig);
  }

  private static Map<String, String> parseFlags(Map<String, Option> byName, List<String> args) {
    Map<String, String> flags = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new UsageException("unexpected argument \"" + arg + "\" (options start with --; see --help)");
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      Option o = byName.get(name);
      if (o == null) {
        throw new UsageException("unknown option --" + name + " (see --help)");
      }
      if (value == null) {
        if (o.type() == Option.Type.FLAG) {
          value = "true";
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new UsageException("option --" + name + " needs a value (see --help)");
        }
      }
      flags.put(name, value);
    }
    return flags;
  }

  private static Map<String, String> readConfigFile(Path path, Map<String, Option> byName, JsonObject serviceConfig) {
    Object doc;
    // YAML is a superset of JSON, so one parser reads both .yaml and .json files.
    try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    } catch (NoSuchFileException e) {
      throw new UsageException("config file " + path + " does not exist");
    } catch (IOException e) {
      throw new UsageException("config file " + path + " cannot be read: " + e.getMessage());
    } catch (YAMLException e) {
      throw new UsageException("config file " + path + " is not valid YAML or JSON: "
          + e.getMessage().replaceAll("\\s+", " ").trim());
    }
    if (doc == null) {
      return Map.of();
    }
    if (!(doc instanceof Map)) {
      throw new UsageException("config file " + path + " must hold a map of option: value");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) doc).entrySet()) {
      String key = String.valueOf(e.getKey());
      if (key.equals(SERVICE_SECTION) && !byName.containsKey(key)) {
        if (!(e.getValue() instanceof Map<?, ?> section)) {
          throw new UsageException("config file " + path + ": key \"" + key + "\" needs a map (the service's own config)");
        }
        serviceConfig.mergeIn(jsonObject(section));
        continue;
      }
      if (!byName.containsKey(key) || key.equals(CONFIG)) {
        throw new UsageException("config file " + path + ": unknown key \"" + key + "\" (see --help)");
      }
      Object v = e.getValue();
      if (v instanceof Map || v instanceof List || v == null) {
        throw new UsageException("config file " + path + ": key \"" + key + "\" needs a plain value");
      }
      out.put(key, String.valueOf(v));
    }
    return out;
  }

  /** A YAML map as JSON: keys as strings, nested maps and lists as JSON, timestamps in ISO-8601. */
  private static JsonObject jsonObject(Map<?, ?> map) {
    JsonObject o = new JsonObject();
    map.forEach((k, v) -> o.put(String.valueOf(k), json(v)));
    return o;
  }

  private static Object json(Object v) {
    if (v instanceof Map<?, ?> m) {
      return jsonObject(m);
    }
    if (v instanceof List<?> l) {
      JsonArray a = new JsonArray();
      l.forEach(x -> a.add(json(x)));
      return a;
    }
    if (v instanceof java.util.Date d) {
      return d.toInstant().toString();
    }
    return v;
  }

  /**
   * The service's own section of the config file ({@code service:}), empty without one: its
   * verticle's {@code config()}. Not set by flags or the environment, which hold plain option values.
   */
  public JsonObject serviceConfig() {
    return serviceConfig.copy();
  }

  public int getInt(String name) {
    return (Integer) get(name);
  }

  public long getSize(String name) {
    return (Long) get(name);
  }

  public Duration getDuration(String name) {
    return (Duration) get(name);
  }

  public String getString(String name) {
    return (String) get(name);
  }

  public boolean getFlag(String name) {
    return (Boolean) get(name);
  }

  /** Where the value of an option came from: "default", "--name", "PORTSHARE_NAME" or "config file F". */
  public String sourceOf(String name) {
    get(name);
    return sources.get(name);
  }

  /** A check beyond the option's type failed: the same one-line error, naming key, value and source. */
  public UsageException invalid(String name, String expected) {
    return new UsageException("invalid value for " + name + ": \"" + get(name) + "\" (from " + sourceOf(name)
        + "); expected " + expected);
  }

  private Object get(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException("no option named " + name);
    }
    return v;
  }
}
