package io.portshare.web;

import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;

/** The part of a request's raw path below where {@link StaticFiles} is routed. */
final class MountedPath {

  private MountedPath() {}

  /**
   * The raw path below where this handler is routed, starting with '/'; null when the request names
   * the mount itself without its slash ({@code /assets} for {@code /assets/*}), which is redirected.
   * The offset is reckoned on the normalized path, as vertx-web's StaticHandler does (the mount
   * point, then the route's own prefix); the raw path is used below it when it starts with the same
   * prefix, so that its strict decoding (400 for {@code ..} in any spelling) is the one applied.
   */
  static String relative(RoutingContext ctx, String raw) {
    int offset = 0;
    String mount = ctx.mountPoint();
    if (mount != null) {
      offset += mount.endsWith("/") ? mount.length() - 1 : mount.length();
    }
    Route route = ctx.currentRoute();
    if (route != null && !route.isRegexPath() && route.getPath() != null) {
      String p = route.getPath();
      offset += p.endsWith("/") ? p.length() - 1 : p.length();
    }
    if (offset == 0) {
      return raw; // the raw path as it is: vertx-web's normalizing refuses malformed escapes with an exception
    }
    String normalized;
    try {
      normalized = ctx.normalizedPath();
    } catch (RuntimeException malformed) {
      return raw.startsWith("/") ? raw.substring(0, 1) + "%" : "%"; // refused as a bad request below
    }
    if (offset > normalized.length()) {
      offset = normalized.length();
    }
    String prefix = normalized.substring(0, offset);
    String rest;
    if (raw.startsWith(prefix) && (raw.length() == offset || raw.charAt(offset) == '/')) {
      rest = raw.substring(offset);
    } else {
      rest = normalized.substring(offset);
    }
    return rest.isEmpty() ? null : rest;
  }
}
