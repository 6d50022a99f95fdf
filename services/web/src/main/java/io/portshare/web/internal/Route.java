package io.portshare.web.internal;

/**
 * What a request names: a file to answer with, what to answer instead, or (from
 * {@link RequestRouter#cached}) a path only the disk can tell. {@link RequestRouter} decides.
 */
public sealed interface Route permits CachedFile, Route.NoFile, Route.Lookup {

  /** The answers to a request that names no file to send. */
  public enum NoFile implements Route {
    /** 405 with {@code Allow}: only GET and HEAD are served. */
    METHOD_NOT_ALLOWED,
    /** 400: a path no file can have (see {@link RequestPath}). */
    BAD_REQUEST,
    /** 404: nothing there, a hidden name, or a directory without an index when listings are off. */
    NOT_FOUND,
    /** 301 to the same path with a slash: a directory named without one. */
    ADD_SLASH,
    /** A directory without an index, and listings are on: the listing page. */
    LISTING
  }

  /**
   * A path the cache does not know (or no longer trusts): {@link RequestRouter#resolve} asks the disk
   * (blocking, on any thread), {@link RequestRouter#decide} keeps the answer on the cache's own thread.
   *
   * @param rawPath the raw path, the cache's key
   * @param path the path decoded
   * @param stale the entry the cache had for it, kept if the disk still agrees, or null
   */
  public record Lookup(String rawPath, RequestPath path, CachedFile stale) implements Route {
  }
}
