package io.portshare.web.internal;

import io.netty.handler.codec.http.HttpMethod;

/**
 * Decides what a request names, from its method and raw path. A cached file costs one map lookup;
 * the path is decoded and looked up on disk only on a miss (see {@link FileCache}).
 */
public final class RequestRouter {

  private final FileCache cache;
  private final boolean listing;

  public RequestRouter(FileCache cache, boolean listing) {
    this.cache = cache;
    this.listing = listing;
  }

  /** {@code now} is the time in epoch millis, as the cache reckons freshness by it. */
  public Route route(HttpMethod method, String rawPath, long now) {
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
      return Route.NoFile.METHOD_NOT_ALLOWED;
    }
    CachedFile file = cache.get(rawPath, now);
    if (file != null) {
      return file;
    }
    RequestPath path = RequestPath.of(rawPath, cache.config().hidden());
    if (path.refused()) {
      return path.refusal() == RequestPath.BAD_REQUEST ? Route.NoFile.BAD_REQUEST : Route.NoFile.NOT_FOUND;
    }
    FileCache.Found found = cache.load(rawPath, path, now);
    if (found instanceof CachedFile loaded) {
      return loaded;
    }
    if (found == FileCache.Miss.DIRECTORY_NEEDS_SLASH) {
      return Route.NoFile.ADD_SLASH;
    }
    if (found == FileCache.Miss.DIRECTORY_WITHOUT_INDEX && listing) {
      return Route.NoFile.LISTING;
    }
    return Route.NoFile.NOT_FOUND;
  }
}
