package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Raw request paths to root-relative ones, decoded once and strictly, or refused. */
class RequestPathTest {

  @ParameterizedTest(name = "{0} -> \"{1}\" (directory {2})")
  @CsvSource(delimiter = '|', value = {
      "/|''|true",
      "/index.html|index.html|false",
      "/a/b/|a/b|true",
      "//a///b|a/b|false",
      "/a/./b|a/b|false",
      "/caf%C3%A9.txt|café.txt|false",
      "/100%25|100%|false",
      "/a%2Fb|a/b|false",
      "/sp%20ace|sp ace|false",
      "/.|''|false"})
  void acceptedPathsAreNormalised(String raw, String relative, boolean directory) {
    RequestPath p = RequestPath.of(raw);

    assertThat(p.refused()).isFalse();
    assertThat(p.relative()).isEqualTo(relative);
    assertThat(p.directory()).isEqualTo(directory);
  }

  @ParameterizedTest(name = "{0} is a bad request")
  @ValueSource(strings = {"", "a", "/..", "/a/../b", "/%2e%2e/etc/passwd", "/a%5cb", "/a\\b", "/nul%00",
      "/tab%09", "/del%7f", "/%", "/%4", "/%zz", "/%C0%AE%C0%AE/", "/%ff", "/\u0100"})
  void badPathsAre400(String raw) {
    RequestPath p = RequestPath.of(raw);

    assertThat(p.refused()).isTrue();
    assertThat(p.refusal()).isEqualTo(RequestPath.BAD_REQUEST);
  }

  @ParameterizedTest(name = "{0} is not found")
  @ValueSource(strings = {"/.git/config", "/a/.env", "/%2ehidden"})
  void hiddenNamesAre404(String raw) {
    assertThat(RequestPath.of(raw).refusal()).isEqualTo(RequestPath.NOT_FOUND);
  }
}
