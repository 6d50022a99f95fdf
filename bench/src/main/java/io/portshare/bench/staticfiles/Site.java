package io.portshare.bench.staticfiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The files both servers serve: {@code Nk.bin} of N KiB of random bytes, {@code Nm.bin} of N MiB,
 * and {@code index.html}, the demo page inside the static-server jar (4.1 KB). World-readable,
 * because nginx's workers run as another user when the driver runs as root.
 */
public final class Site {

  static final String INDEX_ENTRY = "io/portshare/statics/demo/index.html";
  private static final Pattern SIZED = Pattern.compile("(\\d+)([km])\\.bin");

  private Site() {}

  /** Whether {@code path} is a name this class can make. */
  public static boolean makes(String path) {
    return path.equals("index.html") || SIZED.matcher(path).matches();
  }

  public static void create(Path root, List<String> paths, Path serverJar) throws IOException {
    Files.createDirectories(root);
    readable(root, true);
    SplittableRandom random = new SplittableRandom(20261201L);
    for (String p : paths) {
      Path file = root.resolve(p);
      if (p.equals("index.html")) {
        try (ZipFile jar = new ZipFile(serverJar.toFile())) {
          ZipEntry e = jar.getEntry(INDEX_ENTRY);
          if (e == null) {
            throw new IOException("no " + INDEX_ENTRY + " in " + serverJar);
          }
          try (InputStream in = jar.getInputStream(e)) {
            Files.copy(in, file);
          }
        }
      } else {
        Matcher m = SIZED.matcher(p);
        if (!m.matches()) {
          throw new IllegalArgumentException("cannot make a file named \"" + p + "\"; expected Nk.bin, Nm.bin or index.html");
        }
        long bytes = Long.parseLong(m.group(1)) * (m.group(2).equals("k") ? 1024 : 1024 * 1024);
        random(file, bytes, random);
      }
      readable(file, false);
    }
  }

  private static void random(Path file, long bytes, SplittableRandom random) throws IOException {
    byte[] buf = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long left = bytes; left > 0; ) {
        for (int i = 0; i < buf.length; i += 8) {
          long v = random.nextLong();
          for (int j = 0; j < 8; j++) {
            buf[i + j] = (byte) (v >>> (8 * j));
          }
        }
        int n = (int) Math.min(buf.length, left);
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  /** 0755 for directories, 0644 for files: readable by any user. */
  static void readable(Path p, boolean dir) throws IOException {
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(dir ? "rwxr-xr-x" : "rw-r--r--"));
  }
}
