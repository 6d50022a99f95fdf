package io.portshare.web.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files one event loop has answered for, by raw request path: like nginx's open_file_cache, a
 * hit costs one map lookup, and an entry is checked against the disk at most once per
 * {@link Config#validMillis} (a second by default), so edits show within that. Only regular files
 * whose real path lies under the root ever enter, so a hit needs no further check. One cache per
 * event loop: no locks.
 *
 * <p>Finding what a path names ({@link #resolve}) reads the disk and touches no entry, so it may run
 * on any thread (the vertx-web handler runs it off the event loop); keeping the answer
 * ({@link #store}) and looking it up ({@link #get}, {@link #miss}) are the owner's; {@link RequestRouter}
 * does both, on the caller's thread (the own engine's way: a stat from the page cache costs
 * microseconds) or the first on a worker.
 */
public final class FileCache {

  public static final long VALID_MILLIS = 1000;

  /**
   * What the cache serves and how much it holds.
   *
   * @param index the file a directory answers with, or null for none
   * @param hidden whether names starting with a dot are served
   * @param gzip whether a {@code name.gz} sibling is offered as the gzip representation
   * @param maxEntries how many paths are kept, files and (with {@code negative}) misses each
   * @param memoryMax files up to this size are kept in memory
   * @param memoryBudget the bytes of all files kept in memory together
   * @param validMillis how long an entry is trusted before the disk is asked again
   * @param negative whether misses are kept too, so that a missing path is not asked for again within validMillis
   * @param openFilesMax how many files past memoryMax are kept open for sendfile (0: none, each answer opens)
   */
  public record Config(String index, boolean hidden, boolean gzip, int maxEntries, long memoryMax, long memoryBudget,
      long validMillis, boolean negative, int openFilesMax) {

    /**
     * The static service's own engine: index.html, no hidden names, .gz siblings, 4096 entries, no
     * misses kept, up to {@link #OPEN_FILES_MAX} large files kept open.
     */
    public static Config of(long memoryMax, long memoryBudget) {
      return new Config("index.html", false, true, 4096, memoryMax, memoryBudget, VALID_MILLIS, false, OPEN_FILES_MAX);
    }

    /** The same with {@code n} files kept open at most (0 where answers copy files rather than send them). */
    public Config withOpenFilesMax(int n) {
      return new Config(index, hidden, gzip, maxEntries, memoryMax, memoryBudget, validMillis, negative, n);
    }
  }

  /** The descriptors one event loop's cache keeps open at most (large files only), beside its connections' own. */
  public static final int OPEN_FILES_MAX = 128;

  private final Path root;
  private final Config config;
  private long memoryUsed;
  private final LinkedHashMap<String, CachedFile> entries;
  private final LinkedHashMap<String, KnownMiss> misses;
  private final HeldFiles held;

  /** What a request path names: a {@link CachedFile} to answer with, or a {@link Miss}. */
  public sealed interface Found permits CachedFile, Miss {
  }

  /** What a path is, when it is not a file to answer with. */
  public enum Miss implements Found { NOT_FOUND, DIRECTORY_NEEDS_SLASH, DIRECTORY_WITHOUT_INDEX }

  private record KnownMiss(Miss miss, long checkedAt) {
  }

  public FileCache(Path root, long memoryMax, long memoryBudget) {
    this(root, Config.of(memoryMax, memoryBudget));
  }

  /** {@code root} is a real path (no symlink in it). */
  public FileCache(Path root, Config config) {
    this.root = root;
    this.config = config;
    this.held = new HeldFiles(config.openFilesMax());
    this.entries = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, CachedFile> eldest) {
        if (size() > config.maxEntries() || memoryUsed > config.memoryBudget()) {
          forget(eldest.getValue(), null);
          return true;
        }
        return false;
      }
    };
    this.misses = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, KnownMiss> eldest) {
        return size() > config.maxEntries();
      }
    };
  }

  public Path root() {
    return root;
  }

  public Config config() {
    return config;
  }

  /** The entry for a raw path if it is cached and fresh, else null (then see {@link #miss}, or resolve it). */
  public CachedFile get(String rawPath, long now) {
    CachedFile f = entries.get(rawPath);
    if (f != null && now - f.checkedAt >= config.validMillis()) {
      return null;
    }
    return f;
  }

  /** The entry for a raw path whatever its age, or null: what {@link #resolve} may keep if the disk still agrees. */
  public CachedFile stale(String rawPath) {
    return entries.get(rawPath);
  }

  /** The miss a raw path was found to be within the last validMillis, or null (when misses are not kept, always null). */
  public Miss miss(String rawPath, long now) {
    KnownMiss m = misses.get(rawPath);
    if (m == null || now - m.checkedAt >= config.validMillis()) {
      return null;
    }
    return m.miss;
  }

  /**
   * What a decoded path names on disk: a file (the {@code old} entry itself when the disk still
   * agrees with it, so that its pre-encoded parts are kept), or a {@link Miss}. Touches no entry:
   * safe on any thread while the owner goes on using the cache. Blocking.
   */
  public Found resolve(RequestPath path, CachedFile old, long now) {
    Path candidate = path.relative().isEmpty() ? root : root.resolve(path.relative());
    try {
      BasicFileAttributes attrs = Files.readAttributes(candidate, BasicFileAttributes.class);
      if (attrs.isDirectory()) {
        if (!path.directory() && !path.relative().isEmpty()) {
          return Miss.DIRECTORY_NEEDS_SLASH;
        }
        if (config.index() == null) {
          return inside(candidate) ? Miss.DIRECTORY_WITHOUT_INDEX : Miss.NOT_FOUND;
        }
        candidate = candidate.resolve(config.index());
        if (!Files.isRegularFile(candidate)) {
          return inside(candidate.getParent()) ? Miss.DIRECTORY_WITHOUT_INDEX : Miss.NOT_FOUND;
        }
      }
      CachedFile f = open(candidate, old, now);
      return f == null ? Miss.NOT_FOUND : f;
    } catch (IOException e) {
      return Miss.NOT_FOUND;
    }
  }

  /** Keeps what {@link #resolve} found for a raw path (a miss only when misses are kept); returns it. */
  public Found store(String rawPath, Found found, long now) {
    CachedFile old = entries.get(rawPath);
    if (old != null && old == found) {
      old.checkedAt = now; // the disk still agrees: the entry, its memory and its open file stay as they are
      return old;
    }
    if (old != null) {
      entries.remove(rawPath);
      forget(old, found instanceof CachedFile f ? f : null);
    }
    misses.remove(rawPath);
    if (found instanceof CachedFile f) {
      f.checkedAt = now;
      entries.put(rawPath, f); // may evict the eldest entry first, giving back its open files
      memoryUsed += bodySize(f);
      held.hold(f);
      held.hold(f.gzip);
    } else if (config.negative()) {
      misses.put(rawPath, new KnownMiss((Miss) found, now));
    }
    return found;
  }

  /**
   * Closes the files the cache keeps open and keeps none open from now on: an answer still being sent
   * from one closes it when done, and later answers open their files (on the cache's own thread).
   */
  public void close() {
    held.close();
  }

  /** How many files the cache keeps open now. */
  public int openFiles() {
    return held.size();
  }

  private CachedFile open(Path candidate, CachedFile old, long now) throws IOException {
    Path real = candidate.toRealPath();
    // A symlink inside the root may point anywhere; only what really lies under the root is served.
    if (!real.startsWith(root) || real.getFileName() == null
        || (!config.hidden() && real.getFileName().toString().startsWith("."))) {
      return null;
    }
    BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attrs.isRegularFile()) {
      return null;
    }
    long size = attrs.size();
    long mtime = attrs.lastModifiedTime().toMillis();
    CachedFile gzip = config.gzip() ? openGzip(real, old == null ? null : old.gzip, now) : null;
    if (old != null && old.path.equals(real) && old.sameAs(size, mtime) && sameGzip(old.gzip, gzip)) {
      return old;
    }
    try {
      CharSequence type = ContentTypes.of(real.getFileName().toString());
      byte[] bytes = size <= config.memoryMax() ? Files.readAllBytes(real) : null;
      if (bytes != null && bytes.length != size) {
        bytes = null; // changed while we read it; sendfile will send what is there
      }
      return keptOpen(new CachedFile(real, size, mtime, type, bytes, gzip, now));
    } catch (IOException | RuntimeException e) {
      // Gone while it was read: a sibling opened for it here is no entry's, so nothing else would close it.
      if (gzip != null && gzip.open != null && (old == null || gzip != old.gzip)) {
        gzip.open.release();
      }
      throw e;
    }
  }

  private CachedFile openGzip(Path real, CachedFile old, long now) throws IOException {
    Path gz = real.resolveSibling(real.getFileName() + ".gz");
    if (!Files.exists(gz, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    Path gzReal = gz.toRealPath();
    if (!gzReal.startsWith(root)) {
      return null;
    }
    BasicFileAttributes attrs = Files.readAttributes(gzReal, BasicFileAttributes.class);
    if (!attrs.isRegularFile()) {
      return null;
    }
    long mtime = attrs.lastModifiedTime().toMillis();
    if (old != null && old.path.equals(gzReal) && old.sameAs(attrs.size(), mtime)) {
      return old;
    }
    byte[] bytes = attrs.size() <= config.memoryMax() ? Files.readAllBytes(gzReal) : null;
    if (bytes != null && bytes.length != attrs.size()) {
      bytes = null;
    }
    return keptOpen(new CachedFile(gzReal, attrs.size(), mtime, ContentTypes.of(real.getFileName().toString()), bytes,
        null, now));
  }

  /** A file answered from disk, opened here (at lookup, not per answer) when open files are kept. */
  private CachedFile keptOpen(CachedFile f) throws IOException {
    if (f.body == null && config.openFilesMax() > 0) {
      f.open = OpenFile.open(f.path);
    }
    return f;
  }

  private static boolean sameGzip(CachedFile a, CachedFile b) {
    return a == b;
  }

  private boolean inside(Path dir) throws IOException {
    return dir.toRealPath().startsWith(root);
  }

  private void forget(CachedFile f, CachedFile replacement) {
    memoryUsed -= bodySize(f);
    held.let(f, replacement);
    held.let(f.gzip, replacement);
  }

  private static long bodySize(CachedFile f) {
    long n = f.body == null ? 0 : f.size;
    if (f.gzip != null && f.gzip.body != null) {
      n += f.gzip.size;
    }
    return n;
  }

  public int size() {
    return entries.size();
  }
}
