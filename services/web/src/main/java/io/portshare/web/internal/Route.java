package io.portshare.web.internal;

/** What a request names: a file to answer with, or what to answer instead. {@link RequestRouter} decides. */
public sealed interface Route permits CachedFile, Route.NoFile {

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
}
