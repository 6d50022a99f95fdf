package io.portshare.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Where {@link StaticFiles} finds its files: a directory on disk, or one on the class path (served in
 * place from a directory, copied once out of a jar). Its real path is found once, at the first
 * request, by a blocking call.
 */
final class SiteRoot {

  private final Path webroot;
  private final String classpathRoot;
  private final ClassLoader loader;
  private volatile Path real;

  private SiteRoot(Path webroot, String classpathRoot, ClassLoader loader) {
    this.webroot = webroot;
    this.classpathRoot = classpathRoot;
    this.loader = loader;
  }

  /** A directory on disk; it must be one now. */
  static SiteRoot directory(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    return new SiteRoot(dir, null, null);
  }

  /** A directory of the class path ({@code root} without leading or trailing slashes); it must be found now. */
  static SiteRoot classpath(String root, ClassLoader loader) {
    if (resource(loader, root) == null) {
      throw new IllegalArgumentException("not on the class path: " + root);
    }
    return new SiteRoot(null, root, loader);
  }

  /** The real path, once found; null before. */
  Path known() {
    return real;
  }

  /** The real path; the first call finds it (a class path root inside a jar is copied out). Blocking. */
  synchronized Path find() throws IOException {
    if (real == null) {
      real = webroot != null ? webroot.toRealPath() : fromClasspath();
    }
    return real;
  }

  private Path fromClasspath() throws IOException {
    URL url = resource(loader, classpathRoot);
    if (url == null) {
      throw new IOException("not on the class path: " + classpathRoot);
    }
    if ("file".equals(url.getProtocol())) {
      try {
        return Path.of(url.toURI()).toRealPath();
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
    if (url.openConnection() instanceof JarURLConnection jar) {
      jar.setUseCaches(false);
      try (JarFile file = jar.getJarFile()) {
        return extract(file, classpathRoot + "/").toRealPath();
      }
    }
    throw new IOException("a class path root neither in a directory nor in a jar: " + url);
  }

  private static URL resource(ClassLoader loader, String root) {
    URL url = loader.getResource(root);
    return url != null ? url : loader.getResource(root + "/");
  }

  /** The entries of a jar under {@code prefix}, copied to a new temporary directory deleted at exit. */
  private static Path extract(JarFile jar, String prefix) throws IOException {
    Path dir = Files.createTempDirectory("portshare-web-");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "portshare-web-cleanup"));
    Enumeration<JarEntry> entries = jar.entries();
    while (entries.hasMoreElements()) {
      JarEntry e = entries.nextElement();
      if (!e.getName().startsWith(prefix) || e.getName().length() == prefix.length()) {
        continue;
      }
      Path target = dir.resolve(e.getName().substring(prefix.length())).normalize();
      if (!target.startsWith(dir)) {
        continue; // a name with ".." in it: never written outside the copy
      }
      if (e.isDirectory()) {
        Files.createDirectories(target);
      } else {
        Files.createDirectories(target.getParent());
        try (InputStream in = jar.getInputStream(e)) {
          Files.copy(in, target);
        }
      }
    }
    return dir;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException ignored) {
      // a temporary directory: what is left, the system's cleaning takes
    }
  }
}
