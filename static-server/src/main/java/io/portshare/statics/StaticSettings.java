package io.portshare.statics;

import io.portshare.web.internal.DirectoryListing;
import io.portshare.web.internal.FileCache;
import io.portshare.web.internal.RequestRouter;
import io.portshare.runtime.Option;
import io.portshare.runtime.Settings;
import io.portshare.web.StaticFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The static service's own options, and their values resolved, checked and typed.
 *
 * @param engine what answers: this service's own Netty pipeline, or Vert.x's HttpServer with a vertx-web Router
 * @param root the real path of the directory served: {@code --root}, or the demo site unpacked once per JVM
 * @param cacheControl the Cache-Control of every file answer; empty for none
 */
public record StaticSettings(Engine engine, Path root, boolean sendfile, boolean listing, String cacheControl, long memoryMax,
    int maxUri, int maxHeaderSize, Duration headerTimeout, Duration idleTimeout) {

  public static final String ENGINE = "engine";
  public static final String ROOT = "root";
  public static final String NO_SENDFILE = "no-sendfile";
  public static final String LISTING = "listing";
  public static final String CACHE_CONTROL = "cache-control";
  public static final String MEMORY_MAX = "memory-max";
  public static final String MAX_URI = "max-uri";
  public static final String MAX_HEADER_SIZE = "max-header-size";
  public static final String HEADER_TIMEOUT = "header-timeout";
  /** The runtime's --idle-timeout, whose default this service sets ({@link StaticService#defaultIdleTimeout}). */
  public static final String IDLE_TIMEOUT = "idle-timeout";

  /** What answers the requests; both serve the same site with the same answers where HTTP says so. */
  public enum Engine {
    /** The service's own Netty pipeline on the runtime's listener ({@link StaticVerticle}). */
    OWN,
    /** Vert.x's HttpServer and a vertx-web Router ({@link VertxStaticVerticle}). */
    VERTX;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  static final List<Option> OPTIONS = List.of(
      Option.choice(ENGINE, "own", "own: the service's Netty pipeline; vertx: Vert.x's HttpServer and a vertx-web"
          + " Router on the same file decisions (differences: static-server/README.md, Engines)", "own", "vertx"),
      Option.path(ROOT, "", "directory to serve (default: the bundled demo site)"),
      Option.flag(NO_SENDFILE, "send bodies through the copying path instead of sendfile(2), to compare"),
      Option.flag(LISTING, "list directories that have no index.html"),
      Option.string(CACHE_CONTROL, "public, max-age=60", "Cache-Control of every file answer (empty: none)"),
      Option.size(MEMORY_MAX, "32KiB", "files up to this size are answered from memory (0: all by sendfile)"),
      Option.size(MAX_URI, "4KiB", "longest request line; longer gets 414"),
      Option.size(MAX_HEADER_SIZE, "8KiB", "largest request head; larger gets 431"),
      Option.duration(HEADER_TIMEOUT, "10s", "a request head must arrive this soon after its first byte"));

  /** Reads the options; a value out of range fails with the one-line error naming key, value and source. */
  public static StaticSettings of(Settings s) {
    if (s.getSize(MEMORY_MAX) > 16L << 20) {
      throw s.invalid(MEMORY_MAX, "at most 16MiB");
    }
    if (s.getSize(MAX_URI) < 64 || s.getSize(MAX_URI) > 1L << 20) {
      throw s.invalid(MAX_URI, "64 bytes to 1MiB");
    }
    if (s.getSize(MAX_HEADER_SIZE) < 256 || s.getSize(MAX_HEADER_SIZE) > 1L << 20) {
      throw s.invalid(MAX_HEADER_SIZE, "256 bytes to 1MiB");
    }
    if (s.getDuration(HEADER_TIMEOUT).toMillis() < 100) {
      throw s.invalid(HEADER_TIMEOUT, "at least 100ms");
    }
    if (s.getDuration(IDLE_TIMEOUT).toSeconds() < 1) {
      throw s.invalid(IDLE_TIMEOUT, "at least 1s");
    }
    Engine engine = Engine.valueOf(s.getString(ENGINE).toUpperCase(java.util.Locale.ROOT));
    return new StaticSettings(engine, root(s), !s.getFlag(NO_SENDFILE), s.getFlag(LISTING), s.getString(CACHE_CONTROL),
        s.getSize(MEMORY_MAX), (int) s.getSize(MAX_URI), (int) s.getSize(MAX_HEADER_SIZE),
        s.getDuration(HEADER_TIMEOUT), s.getDuration(IDLE_TIMEOUT));
  }

  /**
   * What a request names on this site, the same decisions on both engines: over a {@link FileCache}
   * of its own (one per instance, so per event loop), which holds up to 64 MiB or --memory-max if larger.
   */
  RequestRouter router() {
    FileCache.Config cache = FileCache.Config.of(memoryMax, Math.max(memoryMax, 64L << 20));
    // Large files are kept open for sendfile; the copying path opens (and closes) its own.
    return new RequestRouter(new FileCache(root, sendfile ? cache : cache.withOpenFilesMax(0)), listing);
  }

  /**
   * The same site as portshare-web's handler, for --engine vertx: the same cache sizes (and files kept open), listing,
   * Cache-Control and body paths; each event loop keeps a cache of its own. A miss is looked up on the
   * event loop, as the own engine does: a client that half-closes after its request still gets its
   * answer even with --answer-half-closed=false (stock Vert.x 5 never allows Netty's half-closure, so
   * it closes such a connection once it reads the FIN, before a worker's lookup is back:
   * portshare-web's HalfCloseTest; StaticFuzzOnVertxTest sends such clients). The root is a local
   * directory whose stat the own engine makes in line too.
   */
  StaticFiles.Builder staticFiles() {
    return StaticFiles.webroot(root).listing(listing).cacheControl(cacheControl).memoryMax(memoryMax)
        .cacheBytes(Math.max(memoryMax, 64L << 20)).sendfile(sendfile).missesOnEventLoop(true);
  }

  /** The directory listing's pages, or null when --listing is off. */
  DirectoryListing directoryListing() {
    return listing ? new DirectoryListing(root) : null;
  }

  private static Path root(Settings s) {
    String root = s.getString(ROOT);
    if (!root.isEmpty() && !Files.isDirectory(Path.of(root))) {
      throw s.invalid(ROOT, "an existing directory");
    }
    try {
      return (root.isEmpty() ? DemoSite.unpacked() : Path.of(root)).toRealPath();
    } catch (IOException e) {
      throw s.invalid(ROOT, "a readable directory (" + e.getMessage() + ")");
    }
  }
}
