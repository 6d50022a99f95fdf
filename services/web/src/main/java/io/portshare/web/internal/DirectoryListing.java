package io.portshare.web.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The page --listing answers for a directory without an index.html: its entries as links, hidden
 * ones (a name starting with a dot) left out, names HTML-escaped in the text and percent-encoded in
 * the links. The directory is read on the event loop, as {@link FileCache} reads a file's
 * attributes: listings are opt-in and rare, and a directory of the page cache reads in microseconds.
 */
public final class DirectoryListing {

  private final Path root;
  private final boolean hidden;

  public DirectoryListing(Path root) {
    this(root, false);
  }

  /** With {@code hidden} true, names starting with a dot are listed too. */
  public DirectoryListing(Path root, boolean hidden) {
    this.root = root;
    this.hidden = hidden;
  }

  /** The page for a request path that {@link RequestRouter} routed to a listing, or null if it is gone. */
  public byte[] page(String rawPath) {
    RequestPath path = RequestPath.of(rawPath, hidden);
    if (path.refused()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    try {
      Path dir = (path.relative().isEmpty() ? root : root.resolve(path.relative())).toRealPath();
      if (!dir.startsWith(root)) {
        return null;
      }
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
        for (Path entry : entries) {
          String name = entry.getFileName().toString();
          if (hidden || !name.startsWith(".")) {
            names.add(Files.isDirectory(entry) ? name + "/" : name);
          }
        }
      }
    } catch (IOException e) {
      return null;
    }
    names.sort(null);
    String title = escape("/" + path.relative() + (path.relative().isEmpty() ? "" : "/"));
    StringBuilder html = new StringBuilder(256 + names.size() * 64);
    html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Index of ").append(title)
        .append("</title></head>\n<body><h1>Index of ").append(title).append("</h1>\n<ul>\n");
    if (!path.relative().isEmpty()) {
      html.append("<li><a href=\"../\">../</a></li>\n");
    }
    for (String name : names) {
      html.append("<li><a href=\"").append(encode(name)).append("\">").append(escape(name)).append("</a></li>\n");
    }
    html.append("</ul>\n</body></html>\n");
    return html.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Text as HTML shows it: the five characters with a meaning in markup written as references. */
  public static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A name as a relative link: its UTF-8 bytes, all but the unreserved ones (and a final slash) percent-encoded. */
  public static String encode(String name) {
    StringBuilder out = new StringBuilder(name.length() + 16);
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      boolean unreserved = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
          || b == '-' || b == '.' || b == '_' || b == '~' || (b == '/' && i == bytes.length - 1);
      if (unreserved) {
        out.append((char) b);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
