package io.portshare.statics;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The static file service: GET and HEAD of the files under {@code --root}, bodies by sendfile(2). */
public final class StaticService implements ServiceDescriptor {

  @Override
  public String name() {
    return "static";
  }

  @Override
  public String description() {
    return "static: serves the files under --root over HTTP/1.1 with sendfile(2)";
  }

  @Override
  public int defaultPort() {
    return 8080;
  }

  @Override
  public int defaultAdminPort() {
    return 8081;
  }

  @Override
  public List<Option> options() {
    return List.of(
        Option.path("root", "", "directory to serve (default: the bundled demo site)"),
        Option.flag("no-sendfile", "send bodies through the copying path instead of sendfile(2), to compare"),
        Option.flag("listing", "list directories that have no index.html"),
        Option.string("cache-control", "public, max-age=60", "Cache-Control of every file answer (empty: none)"),
        Option.size("memory-max", "32KiB", "files up to this size are answered from memory (0: all by sendfile)"),
        Option.size("max-uri", "4KiB", "longest request line; longer gets 414"),
        Option.size("max-header-size", "8KiB", "largest request head; larger gets 431"),
        Option.duration("header-timeout", "10s", "a request head must arrive this soon after its first byte"),
        Option.duration("idle-timeout", "75s", "idle keep-alive connections are closed after this"));
  }

  @Override
  public void validate(Settings settings) {
    String root = settings.getString("root");
    if (!root.isEmpty() && !Files.isDirectory(Path.of(root))) {
      throw settings.invalid("root", "an existing directory");
    }
    if (settings.getSize("memory-max") > 16L << 20) {
      throw settings.invalid("memory-max", "at most 16MiB");
    }
    if (settings.getSize("max-uri") < 64 || settings.getSize("max-uri") > 1L << 20) {
      throw settings.invalid("max-uri", "64 bytes to 1MiB");
    }
    if (settings.getSize("max-header-size") < 256 || settings.getSize("max-header-size") > 1L << 20) {
      throw settings.invalid("max-header-size", "256 bytes to 1MiB");
    }
    if (settings.getDuration("header-timeout").toMillis() < 100) {
      throw settings.invalid("header-timeout", "at least 100ms");
    }
    if (settings.getDuration("idle-timeout").toSeconds() < 1) {
      throw settings.invalid("idle-timeout", "at least 1s");
    }
    rootOf(settings);
  }

  /** The real path of the directory served: {@code --root}, or the demo site unpacked once per JVM. */
  static Path rootOf(Settings settings) {
    String root = settings.getString("root");
    try {
      return (root.isEmpty() ? DemoSite.unpacked() : Path.of(root)).toRealPath();
    } catch (java.io.IOException e) {
      throw settings.invalid("root", "a readable directory (" + e.getMessage() + ")");
    }
  }

  /**
   * The root's index page, the page a storm of visitors asks for (the demo site's when no
   * {@code --root} is given). A root without an index.html is warmed with a name that is not there:
   * the warm-up reads no user file but the index.
   */
  @Override
  public Optional<WarmUpExchange> warmUp(Settings settings) {
    boolean index = Files.isRegularFile(rootOf(settings).resolve("index.html"));
    return Optional.of(WarmUpExchange.httpGet(index ? "/" : "/.portshare-warm-up"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new StaticVerticle();
  }
}
