package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteTest {

  @TempDir
  Path dir;

  private Path jarWithIndex(String html) throws Exception {
    Path jar = dir.resolve("server.jar");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(jar))) {
      z.putNextEntry(new ZipEntry(Site.INDEX_ENTRY));
      z.write(html.getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    return jar;
  }

  @Test
  void makesSizedRandomFilesAndTheJarsIndexReadableByEveryone() throws Exception {
    Path root = dir.resolve("site");
    Site.create(root, List.of("1k.bin", "24k.bin", "2m.bin", "index.html"), jarWithIndex("<h1>demo</h1>"));
    assertThat(Files.size(root.resolve("1k.bin"))).isEqualTo(1024);
    assertThat(Files.size(root.resolve("24k.bin"))).isEqualTo(24 * 1024);
    assertThat(Files.size(root.resolve("2m.bin"))).isEqualTo(2 * 1024 * 1024);
    assertThat(root.resolve("index.html")).hasContent("<h1>demo</h1>");
    byte[] k1 = Files.readAllBytes(root.resolve("1k.bin"));
    assertThat(k1).isNotEqualTo(new byte[1024]);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root))).isEqualTo("rwxr-xr-x");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("2m.bin"))))
        .isEqualTo("rw-r--r--");
  }

  @Test
  void namesItCannotMakeAreRefused() throws Exception {
    assertThat(Site.makes("8k.bin")).isTrue();
    assertThat(Site.makes("index.html")).isTrue();
    assertThat(Site.makes("../etc/passwd")).isFalse();
    assertThat(Site.makes("8g.bin")).isFalse();
    assertThatThrownBy(() -> Site.create(dir.resolve("s"), List.of("a.txt"), jarWithIndex("x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a.txt");
  }

  @Test
  void aJarWithoutTheDemoPageIsAnError() throws Exception {
    Path jar = dir.resolve("empty.jar");
    try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream z = new ZipOutputStream(out)) {
      z.putNextEntry(new ZipEntry("other"));
      z.closeEntry();
    }
    assertThatThrownBy(() -> Site.create(dir.resolve("s"), List.of("index.html"), jar))
        .hasMessageContaining(Site.INDEX_ENTRY);
  }
}
