package io.portshare.statics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files one event loop has answered for, by raw request path: like nginx's open_file_cache, a
 * hit costs one map lookup, and an entry is checked against the disk at most once a second
 * ({@link #VALID_MILLIS}), so edits show within a second. Only regular files whose real path lies
 * under the root ever enter, so a hit needs no further check. One cache per event loop: no locks.
 */
final class FileCache {

  static final long VALID_MILLIS = 1000;
  private static final int MAX_ENTRIES = 4096;

  private final Path root;
  private final long memoryMax;
  private final long memoryBudget;
  private long memoryUsed;
  private final LinkedHashMap<String, CachedFile> entries;

  /** What a request path names: a {@link CachedFile} to answer with, or a {@link Miss}. */
  sealed interface Found permits CachedFile, Miss {
  }

  /** What a path is, when it is not a file to answer with. */
  enum Miss implements Found { NOT_FOUND, DIRECTORY_NEEDS_SLASH, DIRECTORY_WITHOUT_INDEX }

  FileCache(Path root, long memoryMax, long memoryBudget) {
    this.root = root;
    this.memoryMax = memoryMax;
    this.memoryBudget = memoryBudget;
    this.entries = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, CachedFile> eldest) {
        if (size() > MAX_ENTRIES || memoryUsed > FileCache.this.memoryBudget) {
          forget(eldest.getValue());
          return true;
        }
        return false;
      }
    };
  }

  /** The entry for a raw path if it is cached and fresh, else null (then call {@link #load}). */
  CachedFile get(String rawPath, long now) {
    CachedFile f = entries.get(rawPath);
    if (f != null && now - f.checkedAt >= VALID_MILLIS) {
      return null;
    }
    return f;
  }

  /**
   * Resolves a decoded path against the root and caches the file it names. Returns the file, or a
   * {@link Miss}. Blocking file-system calls (stat, realpath, reading a small file) run here on the
   * event loop, once per path per second: a few microseconds from the page cache, as nginx does.
   */
  Found load(String rawPath, RequestPath path, long now) {
    CachedFile old = entries.remove(rawPath);
    if (old != null) {
      forget(old);
    }
    Path candidate = path.relative().isEmpty() ? root : root.resolve(path.relative());
    try {
      BasicFileAttributes attrs = Files.readAttributes(candidate, BasicFileAttributes.class);
      if (attrs.isDirectory()) {
        if (!path.directory() && !path.relative().isEmpty()) {
          return Miss.DIRECTORY_NEEDS_SLASH;
        }
        candidate = candidate.resolve("index.html");
        if (!Files.isRegularFile(candidate)) {
          return inside(candidate.getParent()) ? Miss.DIRECTORY_WITHOUT_INDEX : Miss.NOT_FOUND;
        }
      }
      CachedFile f = open(candidate, old, now);
      if (f == null) {
        return Miss.NOT_FOUND;
      }
      entries.put(rawPath, f);
      memoryUsed += bodySize(f);
      return f;
    } catch (IOException e) {
      return Miss.NOT_FOUND;
    }
  }

  private CachedFile open(Path candidate, CachedFile old, long now) throws IOException {
    Path real = candidate.toRealPath();
    // A symlink inside the root may point anywhere; only what really lies under the root is served.
    if (!real.startsWith(root) || real.getFileName() == null || real.getFileName().toString().startsWith(".")) {
      return null;
    }
    BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attrs.isRegularFile()) {
      return null;
    }
    long size = attrs.size();
    long mtime = attrs.lastModifiedTime().toMillis();
    CachedFile gzip = openGzip(real, old == null ? null : old.gzip, now);
    if (old != null && old.path.equals(real) && old.sameAs(size, mtime) && sameGzip(old.gzip, gzip)) {
      old.checkedAt = now;
      return old;
    }
    CharSequence type = ContentTypes.of(real.getFileName().toString());
    byte[] bytes = size <= memoryMax ? Files.readAllBytes(real) : null;
    if (bytes != null && bytes.length != size) {
      bytes = null; // changed while we read it; sendfile will send what is there
    }
    return new CachedFile(real, size, mtime, type, bytes, gzip, now);
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
    byte[] bytes = attrs.size() <= memoryMax ? Files.readAllBytes(gzReal) : null;
    if (bytes != null && bytes.length != attrs.size()) {
      bytes = null;
    }
    return new CachedFile(gzReal, attrs.size(), mtime, ContentTypes.of(real.getFileName().toString()), bytes, null,
        now);
  }

  private static boolean sameGzip(CachedFile a, CachedFile b) {
    return a == b;
  }

  private boolean inside(Path dir) throws IOException {
    return dir.toRealPath().startsWith(root);
  }

  private void forget(CachedFile f) {
    memoryUsed -= bodySize(f);
  }

  private static long bodySize(CachedFile f) {
    long n = f.body == null ? 0 : f.size;
    if (f.gzip != null && f.gzip.body != null) {
      n += f.gzip.size;
    }
    return n;
  }

  int size() {
    return entries.size();
  }
}
