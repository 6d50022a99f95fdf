package io.portshare.statics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * The site served when no {@code --root} is given. sendfile(2) needs a real file, so the bundled
 * pages are unpacked once per JVM into a temporary directory, removed again at exit; the text
 * files get a pre-compressed {@code .gz} sibling, as a deployment would ship them.
 */
final class DemoSite {

  static final List<String> FILES = List.of("index.html", "style.css", "hello.txt", "docs/index.html");
  private static final String RESOURCES = "/io/portshare/statics/demo/";
  private static Path unpacked;

  private DemoSite() {}

  static synchronized Path unpacked() {
    if (unpacked == null) {
      unpacked = unpack();
    }
    return unpacked;
  }

  private static Path unpack() {
    try {
      Path dir = Files.createTempDirectory("portshare-static-demo-");
      for (String name : FILES) {
        Path target = dir.resolve(name);
        Files.createDirectories(target.getParent());
        try (InputStream in = DemoSite.class.getResourceAsStream(RESOURCES + name)) {
          if (in == null) {
            throw new IOException("demo resource missing from the jar: " + name);
          }
          Files.copy(in, target);
        }
        if (!name.endsWith(".txt")) {
          try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name + ".gz")))) {
            Files.copy(target, gz);
          }
        }
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "portshare-demo-cleanup"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack the demo site", e);
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: it is a temporary directory
    }
  }
}
