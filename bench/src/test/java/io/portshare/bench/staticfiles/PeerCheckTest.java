package io.portshare.bench.staticfiles;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.kit.Ci;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerCheckTest {

  @TempDir
  Path dir;

  private Path site(String... paths) throws IOException {
    Path root = dir.resolve("site");
    Site.create(root, List.of(paths), null);
    return root;
  }

  @Test
  void firstDifferenceFindsTheOffsetOrAShorterStream() throws IOException {
    assertThat(PeerCheck.firstDifference(new ByteArrayInputStream(new byte[] {1, 2, 3}),
        new ByteArrayInputStream(new byte[] {1, 2, 3}))).isEqualTo(-1);
    assertThat(PeerCheck.firstDifference(new ByteArrayInputStream(new byte[] {1, 9, 3}),
        new ByteArrayInputStream(new byte[] {1, 2, 3}))).isEqualTo(1);
    assertThat(PeerCheck.firstDifference(new ByteArrayInputStream(new byte[] {1, 2}),
        new ByteArrayInputStream(new byte[] {1, 2, 3}))).isEqualTo(2);
  }

  @Test
  void aServerWithTheRightBytesPassesAndOneWithAChangedByteFails() throws Exception {
    Path root = site("1k.bin", "16k.bin");
    Path served = dir.resolve("served");
    Files.createDirectories(served);
    Files.copy(root.resolve("1k.bin"), served.resolve("1k.bin"));
    Files.copy(root.resolve("16k.bin"), served.resolve("16k.bin"));
    try (FileServer server = new FileServer(served)) {
      PeerCheck.verify("jdk", "127.0.0.1", server.port(), root, List.of("1k.bin", "16k.bin"));

      byte[] b = Files.readAllBytes(served.resolve("16k.bin"));
      b[10_000] ^= 1;
      Files.write(served.resolve("16k.bin"), b);
      assertThatThrownBy(() -> PeerCheck.verify("jdk", "127.0.0.1", server.port(), root, List.of("1k.bin", "16k.bin")))
          .isInstanceOf(IOException.class).hasMessageContaining("jdk").hasMessageContaining("16k.bin")
          .hasMessageContaining("byte 10000");

      Files.delete(served.resolve("1k.bin"));
      assertThatThrownBy(() -> PeerCheck.verify("jdk", "127.0.0.1", server.port(), root, List.of("1k.bin")))
          .hasMessageContaining("404");
    }
  }

  /** The real peer: nginx from the template, in a scratch directory its workers (another user under root) can read. */
  @Test
  void nginxStartedFromTheTemplateServesTheSiteByteForByte() throws Exception {
    Optional<String> nginx = Tools.find("nginx", "/usr/sbin/nginx");
    Ci.require(nginx.isPresent(), "nginx is not installed (apt-get install nginx-light); the nginx peer is not checked");
    Site.readable(dir, true); // a JUnit temp dir is 0700, which nginx's workers could not enter
    Path root = site("1k.bin", "2m.bin");
    int port = FreePorts.block(1);
    try (Peer peer = Peer.nginx("nginx", nginx.get(), NginxConfigTest.TEMPLATE, dir.resolve("run"), root, port, 1,
        true, dir.resolve("logs"))) {
      PeerCheck.verify(peer.name(), "127.0.0.1", peer.port(), root, List.of("1k.bin", "2m.bin"));
      assertThat(Download.fetch("127.0.0.3", peer.port(), "2m.bin")).isEqualTo(2 * 1024 * 1024);
      assertThat(peer.processes().handles().get(0).descendants().count()).isEqualTo(1); // the one worker
    }
  }
}
