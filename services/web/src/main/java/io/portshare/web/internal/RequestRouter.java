package io.portshare.web.internal;

import io.netty.handler.codec.http.HttpMethod;

/**
 * Decides what a request names, from its method and raw path, the same on both engines. A cached file
 * (or, where misses are kept, a known miss) costs one map lookup; the path is decoded and looked up
 * on disk only on a miss (see {@link FileCache}). The own engine looks up in line ({@link #route});
 * portshare-web's handler may look up on a worker: {@link #cached}, then {@link #resolve} off the
 * event loop and {@link #decide} back on it.
 */
public final class RequestRouter {

  private final FileCache cache;
  private final boolean listing;

  public RequestRouter(FileCache cache, boolean listing) {
    this.cache = cache;
    this.listing = listing;
  }

  /** What the request names, the disk asked on this thread if need be; {@code now} in epoch millis. */
  public Route route(HttpMethod method, String rawPath, long now) {
    Route r = cached(method, rawPath, now);
    return r instanceof Route.Lookup lookup ? decide(lookup, resolve(lookup, now), now) : r;
  }

  /**
   * What the request names as far as the cache knows: a {@link Route.Lookup} when the disk must be
   * asked. A null {@code rawPath} is a mount point named without its slash ({@code /assets} for a
   * handler on {@code /assets/*}): redirected to it with one.
   */
  public Route cached(HttpMethod method, String rawPath, long now) {
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
      return Route.NoFile.METHOD_NOT_ALLOWED;
    }
    if (rawPath == null) {
      return Route.NoFile.ADD_SLASH;
    }
    CachedFile file = cache.get(rawPath, now);
    if (file != null) {
      return file;
    }
    FileCache.Miss miss = cache.miss(rawPath, now);
    if (miss != null) {
      return route(miss);
    }
    RequestPath path = RequestPath.of(rawPath, cache.config().hidden());
    if (path.refused()) {
      return path.refusal() == RequestPath.BAD_REQUEST ? Route.NoFile.BAD_REQUEST : Route.NoFile.NOT_FOUND;
    }
    return new Route.Lookup(rawPath, path, cache.stale(rawPath));
  }

  /** What the disk says the path is. Blocking; touches no entry, so any thread may ask. */
  public FileCache.Found resolve(Route.Lookup lookup, long now) {
    return cache.resolve(lookup.path(), lookup.stale(), now);
  }

  /** Keeps what {@link #resolve} found and says what it routes to; on the cache's own thread. */
  public Route decide(Route.Lookup lookup, FileCache.Found found, long now) {
    FileCache.Found kept = cache.store(lookup.rawPath(), found, now);
    return kept instanceof CachedFile file ? file : route((FileCache.Miss) kept);
  }

  private Route route(FileCache.Miss miss) {
    return switch (miss) {
      case DIRECTORY_NEEDS_SLASH -> Route.NoFile.ADD_SLASH;
      case DIRECTORY_WITHOUT_INDEX -> listing ? Route.NoFile.LISTING : Route.NoFile.NOT_FOUND;
      case NOT_FOUND -> Route.NoFile.NOT_FOUND;
    };
  }

  /** Closes the files its cache keeps open; on the cache's own thread, when the engine stops. */
  public void close() {
    cache.close();
  }
}
