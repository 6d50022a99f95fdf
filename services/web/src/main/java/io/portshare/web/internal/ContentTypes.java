package io.portshare.web.internal;

import io.netty.util.AsciiString;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Content-Type by file extension, pre-encoded once. */
public final class ContentTypes {

  public static final AsciiString DEFAULT = AsciiString.cached("application/octet-stream");
  private static final Map<String, AsciiString> BY_EXTENSION = new HashMap<>();

  static {
    put("text/html; charset=utf-8", "html", "htm");
    put("text/css; charset=utf-8", "css");
    put("text/javascript; charset=utf-8", "js", "mjs");
    put("text/plain; charset=utf-8", "txt", "text", "log", "md");
    put("text/csv; charset=utf-8", "csv");
    put("text/xml; charset=utf-8", "xml");
    put("application/json", "json", "map");
    put("application/wasm", "wasm");
    put("application/pdf", "pdf");
    put("application/zip", "zip");
    put("application/gzip", "gz");
    put("application/x-tar", "tar");
    put("image/png", "png");
    put("image/jpeg", "jpg", "jpeg");
    put("image/gif", "gif");
    put("image/webp", "webp");
    put("image/avif", "avif");
    put("image/svg+xml", "svg");
    put("image/x-icon", "ico");
    put("font/woff", "woff");
    put("font/woff2", "woff2");
    put("font/ttf", "ttf");
    put("font/otf", "otf");
    put("audio/mpeg", "mp3");
    put("audio/ogg", "ogg");
    put("video/mp4", "mp4");
    put("video/webm", "webm");
  }

  private ContentTypes() {}

  private static void put(String type, String... extensions) {
    AsciiString encoded = AsciiString.cached(type);
    for (String e : extensions) {
      BY_EXTENSION.put(e, encoded);
    }
  }

  public static AsciiString of(String fileName) {
    int dot = fileName.lastIndexOf('.');
    if (dot < 0 || dot == fileName.length() - 1) {
      return DEFAULT;
    }
    AsciiString type = BY_EXTENSION.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
    return type == null ? DEFAULT : type;
  }
}
