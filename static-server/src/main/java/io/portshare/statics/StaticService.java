package io.portshare.statics;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The static file service: GET and HEAD of the files under {@code --root}, bodies by sendfile(2). */
public final class StaticService implements ServiceDescriptor {

  @Override
  public String name() {
    return "static";
  }

  @Override
  public String description() {
    return "static: serves the files under --root over HTTP/1.1 with sendfile(2)";
  }

  @Override
  public int defaultPort() {
    return 8080;
  }

  @Override
  public int defaultAdminPort() {
    return 8081;
  }

  /** nginx's keepalive_timeout: close a connection with no request arriving and no answer moving this long. */
  @Override
  public Duration defaultIdleTimeout() {
    return Duration.ofSeconds(75);
  }

  @Override
  public List<Option> options() {
    return StaticSettings.OPTIONS;
  }

  @Override
  public void validate(Settings settings) {
    StaticSettings.of(settings);
  }

  /**
   * The root's index page, the page a storm of visitors asks for (the demo site's when no
   * {@code --root} is given). A root without an index.html is warmed with a name that is not there:
   * the warm-up reads no user file but the index.
   */
  @Override
  public Optional<WarmUpExchange> warmUp(Settings settings) {
    boolean index = Files.isRegularFile(StaticSettings.of(settings).root().resolve("index.html"));
    return Optional.of(WarmUpExchange.httpGet(index ? "/" : "/.portshare-warm-up"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new StaticVerticle();
  }

  /** The verticle of the engine {@code --engine} names; the runtime creates one per instance. */
  @Override
  public ServiceVerticle newVerticle(Settings settings) {
    return StaticSettings.of(settings).engine() == StaticSettings.Engine.VERTX ? new VertxStaticVerticle()
        : new StaticVerticle();
  }
}
