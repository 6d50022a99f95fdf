package io.portshare.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The runtime's logging configuration applies when the runtime launches the process, and only
 * then: its jar carries no logback.xml to clash with a user's own, the launcher names its file
 * (text or JSON) unless the user named one, and tests log as a launched service does.
 */
class LoggingConfigurationTest {

  private static final Duration START = Duration.ofSeconds(60);

  @Test
  void theRuntimeShipsNoLogbackXmlOfItsOwn() {
    // This class path holds the runtime's classes and everything it depends on: a user's
    // logback.xml would be the only one.
    assertThat(Launcher.class.getClassLoader().getResource("logback.xml")).isNull();
    assertThat(Launcher.class.getClassLoader().getResource("portshare-logback.xml")).isNotNull();
    assertThat(Launcher.class.getClassLoader().getResource("portshare-logback-json.xml")).isNotNull();
  }

  @Test
  void testsLogAsALaunchedServiceDoes() {
    // logback's own default, without a configuration, is DEBUG for everything.
    assertThat(LoggerFactory.getLogger("io.portshare.x").isInfoEnabled()).isTrue();
    assertThat(LoggerFactory.getLogger("io.portshare.x").isDebugEnabled()).isFalse();
    assertThat(LoggerFactory.getLogger("io.netty.x").isInfoEnabled()).isFalse();
    assertThat(LoggerFactory.getLogger("io.vertx.x").isWarnEnabled()).isTrue();
  }

  @Test
  void aConfigurationTheUserNamesWinsOverTheLaunchers(@TempDir Path dir) throws Exception {
    Path own = dir.resolve("own-logback.xml");
    Files.writeString(own, """
        <configuration>
          <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>OWN %level %msg%n</pattern></encoder>
          </appender>
          <root level="INFO"><appender-ref ref="out"/></root>
        </configuration>
        """);
    try (ServiceProcess p = ServiceProcess.launch(
        Map.of("JAVA_TOOL_OPTIONS", "-Dlogback.configurationFile=" + own, "PORTSHARE_LOG_FORMAT", "json"),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", "1")) {
      p.awaitReady(START);
      assertThat(p.output().lines()).anyMatch(l -> l.startsWith("OWN INFO") && l.contains("ready in"));
      assertThat(p.output().lines()).noneMatch(l -> l.startsWith("{"));
    }
  }

  @Test
  void textIsTheLaunchersDefaultFormat() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", "1", "--log-format", "text")) {
      p.awaitReady(START);
      assertThat(p.output().lines())
          .anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO .*ready in.*"));
    }
  }
}
