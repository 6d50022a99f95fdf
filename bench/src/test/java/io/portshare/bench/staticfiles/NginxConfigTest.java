package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NginxConfigTest {

  static final Path TEMPLATE = Path.of("peers/nginx-static.conf.template");

  @Test
  void theTemplateIsFilledCompletelyWithTheRunsValues() throws Exception {
    String conf = NginxConfig.render(Files.readString(TEMPLATE), "/scratch/run", "/scratch/site", 18090, 2, false);
    assertThat(conf).doesNotContainPattern("@[A-Z_]+@");
    assertThat(conf).contains("worker_processes 2;", "pid /scratch/run/nginx.pid;", "sendfile off;",
        "listen 18090 reuseport", "root /scratch/site;", "client_body_temp_path /scratch/run/tmp;", "daemon off;",
        "access_log off;");
    assertThat(NginxConfig.render(Files.readString(TEMPLATE), "/r", "/s", 1, 1, true)).contains("sendfile on;");
    assertThat(NginxConfig.render(Files.readString(TEMPLATE), "/r", "/s", 18091, 2, true, false))
        .contains("listen 18091 backlog=4096;").doesNotContain("listen 18091 reuseport");
  }

  @Test
  void aPlaceholderWithoutAValueIsAnError() {
    assertThatThrownBy(() -> NginxConfig.fill("listen @PORT@; root @DOCROOT@;", Map.of("PORT", "1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("@DOCROOT@");
  }

  @Test
  void valuesAreTakenLiterally() {
    assertThat(NginxConfig.fill("root @ROOT@;", Map.of("ROOT", "/a$1\\b"))).isEqualTo("root /a$1\\b;");
  }
}
