package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every spelling of "a file outside the root" we know of, sent byte for byte: each gets 400 or 404
 * and never a byte of the file. The root holds {@code root/}; the secret is in {@code outside/},
 * its sibling, so {@code /../outside/secret.txt} is the real escape.
 */
class PathTraversalTest {

  @TempDir
  static Path tmp;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;
  static int port;
  static Path outside;

  @BeforeAll
  static void start(TestInfo test) throws IOException {
    // JUnit also runs a superclass's static @BeforeAll that a subclass's hides: a subclass starts
    // its own server on another engine, so this one starts only for this class.
    if (test.getTestClass().orElseThrow() == PathTraversalTest.class) {
      startWith("own");
    }
  }

  /** The server under test on {@code engine} (own or vertx). */
  static void startWith(String engine) throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    outside = tmp.resolve("outside");
    StaticServerTest.Site.populate(root, outside);
    rt = runtimes.start(new StaticService(), TestServers.flags(root, "--listing", "--engine", engine));
    port = rt.port();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "/../outside/secret.txt",                      // plain dot-dot
      "/sub/../../outside/secret.txt",               // dot-dot after a real directory
      "/./../outside/secret.txt",                    // dot then dot-dot
      "/%2e%2e/outside/secret.txt",                  // percent-encoded dots
      "/%2E%2E%2Foutside%2Fsecret.txt",              // encoded dots and slashes, upper case
      "/..%2foutside%2fsecret.txt",                  // encoded slash only
      "/.%2e/outside/secret.txt",                    // half encoded
      "/%252e%252e/outside/secret.txt",              // double encoding: must be decoded once only
      "/%252e%252e%252foutside%252fsecret.txt",      // double encoding of the slash too
      "/..\\outside\\secret.txt",                    // backslashes
      "/%5c..%5coutside%5csecret.txt",               // encoded backslashes
      "/..%5coutside%5csecret.txt",                  // mixed
      "/secret.txt%00.html",                         // NUL byte
      "/%00../outside/secret.txt",                   // NUL before dot-dot
      "/%c0%ae%c0%ae/outside/secret.txt",            // overlong UTF-8 dots
      "/%c0%ae%c0%ae%c0%afoutside%c0%afsecret.txt",  // overlong dots and slashes
      "/..%c0%afoutside%c0%afsecret.txt",            // overlong slash
      "/%e0%80%ae%e0%80%ae/outside/secret.txt",      // three-byte overlong dots
      "/%c1%9c..%c1%9coutside%c1%9csecret.txt",      // overlong backslash
      "/\u00c0\u00ae\u00c0\u00ae/outside/secret.txt",// raw overlong bytes, not encoded
      "/linkdir/secret.txt",                         // a directory symlink pointing outside
      "/link.txt",                                   // a file symlink pointing outside
      "/linkdir/",                                   // listing through an outside symlink
      "//../outside/secret.txt",                     // doubled slash
      "/%2e%2e",                                     // to the parent directory itself
      "/..",                                         // the same, plain
  })
  void neverAByteFromOutsideTheRoot(String target) throws IOException {
    HttpWire.Response r = HttpWire.get(port, target);
    assertThat(r.status()).as(target).isIn(400, 404);
    assertThat(r.text()).as(target).doesNotContain(StaticServerTest.SECRET).doesNotContain("secret.txt");
  }

  @Test
  void absolutePathsAreTakenUnderTheRoot() throws IOException {
    for (String target : new String[] {outside.resolve("secret.txt").toString(), "/etc/passwd", "//etc/passwd",
        "/" + outside.resolve("secret.txt").toString().replace("/", "%2f")}) {
      HttpWire.Response r = HttpWire.get(port, target);
      assertThat(r.status()).as(target).isIn(400, 404);
      assertThat(r.text()).as(target).doesNotContain(StaticServerTest.SECRET).doesNotContain("root:");
    }
  }

  @Test
  void absoluteFormAndRelativeTargetsCannotEscape() throws IOException {
    for (String target : new String[] {"http://t/../outside/secret.txt", "http://t/%2e%2e/outside/secret.txt",
        "../outside/secret.txt", "outside/secret.txt", "*"}) {
      HttpWire.Response r = HttpWire.get(port, target);
      assertThat(r.status()).as(target).isIn(400, 404);
      assertThat(r.text()).as(target).doesNotContain(StaticServerTest.SECRET);
    }
  }

  @Test
  void aSymlinkInsideTheRootToAFileInsideIsServed() throws IOException {
    assertThat(HttpWire.get(port, "/inside-link.txt").text()).isEqualTo("hello\n");
  }

  @Test
  void listingShowsFilesButNotHiddenOnes() throws IOException {
    HttpWire.Response r = HttpWire.get(port, "/noindex/");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.text()).contains("a.txt").doesNotContain(".secret");
    assertThat(HttpWire.get(port, "/noindex/a.txt").text()).isEqualTo("a");
  }

  @Test
  void decodedNamesWithSpacesAndUtf8AreServed() throws IOException {
    Path root = tmp.resolve("root");
    Files.writeString(root.resolve("two words é.txt"), "ok", StandardCharsets.UTF_8);
    assertThat(HttpWire.get(port, "/two%20words%20%C3%A9.txt").text()).isEqualTo("ok");
  }
}
