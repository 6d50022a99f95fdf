package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a request names, decided from its method and raw path against a root on disk. */
class RequestRouterTest {

  private static final long NOW = 1_000_000;

  @TempDir
  Path tmp;
  private Path root;
  private FileCache cache;

  @BeforeEach
  void site() throws IOException {
    root = tmp.toRealPath();
    Files.writeString(root.resolve("a.txt"), "a\n");
    Files.writeString(root.resolve(".env"), "secret\n");
    Files.createDirectories(root.resolve("docs"));
    Files.writeString(root.resolve("docs/index.html"), "<p>docs</p>\n");
    Files.createDirectories(root.resolve("empty"));
    cache = new FileCache(root, 32 << 10, 64L << 20);
  }

  private Route route(String method, String rawPath, boolean listing) {
    return new RequestRouter(cache, listing).route(HttpMethod.valueOf(method), rawPath, NOW);
  }

  @ParameterizedTest(name = "{0} of a file is the file")
  @ValueSource(strings = {"GET", "HEAD"})
  void getAndHeadOfAFileAreTheFile(String method) {
    Route r = route(method, "/a.txt", false);

    assertThat(r).isInstanceOf(CachedFile.class);
    assertThat(((CachedFile) r).path).isEqualTo(root.resolve("a.txt"));
  }

  @Test
  void aFileNamedAgainIsTheCachedOne() {
    RequestRouter router = new RequestRouter(cache, false);
    Route first = router.route(HttpMethod.GET, "/a.txt", NOW);

    assertThat(router.route(HttpMethod.GET, "/a.txt", NOW + 1)).isSameAs(first);
    assertThat(cache.size()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} is not allowed")
  @ValueSource(strings = {"POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"})
  void otherMethodsAreNotAllowedEvenForAFile(String method) {
    assertThat(route(method, "/a.txt", false)).isEqualTo(Route.NoFile.METHOD_NOT_ALLOWED);
  }

  @ParameterizedTest(name = "{0} is a bad request")
  @ValueSource(strings = {"/../a.txt", "/docs/%2e%2e/a.txt", "/a%00.txt", "/a\\b", "/%zz", "a.txt", "/a#b"})
  void pathsNoFileCanHaveAreBadRequests(String rawPath) {
    assertThat(route("GET", rawPath, false)).isEqualTo(Route.NoFile.BAD_REQUEST);
  }

  @ParameterizedTest(name = "{0} is not found")
  @ValueSource(strings = {"/missing.txt", "/.env", "/docs/.env", "/empty/", "/"})
  void missingAndHiddenNamesAreNotFound(String rawPath) {
    assertThat(route("GET", rawPath, false)).isEqualTo(Route.NoFile.NOT_FOUND);
  }

  @Test
  void aDirectoryIsItsIndexAndWantsASlash() {
    assertThat(route("GET", "/docs", false)).isEqualTo(Route.NoFile.ADD_SLASH);
    Route index = route("GET", "/docs/", false);
    assertThat(index).isInstanceOf(CachedFile.class);
    assertThat(((CachedFile) index).path).isEqualTo(root.resolve("docs/index.html"));
  }

  @Test
  void aDirectoryWithoutIndexIsListedOnlyWhenListingsAreOn() {
    assertThat(route("GET", "/empty/", true)).isEqualTo(Route.NoFile.LISTING);
    assertThat(route("GET", "/empty/", false)).isEqualTo(Route.NoFile.NOT_FOUND);
    assertThat(route("GET", "/missing/", true)).isEqualTo(Route.NoFile.NOT_FOUND);
  }

  @Test
  void aLookupAskedOffTheCachesThreadIsKeptByDecide() {
    FileCache keepsMisses = new FileCache(root, new FileCache.Config("index.html", false, true, 16, 1024, 1 << 20,
        FileCache.VALID_MILLIS, true, 0));
    RequestRouter router = new RequestRouter(keepsMisses, false);

    Route first = router.cached(HttpMethod.GET, "/docs", NOW);
    assertThat(first).isInstanceOf(Route.Lookup.class);
    Route.Lookup lookup = (Route.Lookup) first;
    assertThat(router.decide(lookup, router.resolve(lookup, NOW), NOW)).isEqualTo(Route.NoFile.ADD_SLASH);

    assertThat(router.cached(HttpMethod.GET, "/docs", NOW + 1)).as("the miss kept").isEqualTo(Route.NoFile.ADD_SLASH);
    assertThat(router.cached(HttpMethod.GET, "/docs", NOW + FileCache.VALID_MILLIS))
        .as("asked again once it is stale").isInstanceOf(Route.Lookup.class);
    assertThat(router.cached(HttpMethod.GET, null, NOW)).as("the mount without its slash")
        .isEqualTo(Route.NoFile.ADD_SLASH);
  }
}
