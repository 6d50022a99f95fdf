package ${package};

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import java.util.List;
import java.util.Optional;

/**
 * The ${artifactId} service as the launcher sees it: its name, default ports and options. The
 * launcher finds it through src/main/resources/META-INF/services/io.portshare.runtime.ServiceDescriptor.
 */
public final class MainService implements ServiceDescriptor {

  /** What GET /hello answers: {@code --greeting}, PORTSHARE_GREETING or {@code greeting:} in the config file. */
  static final String GREETING = "greeting";

  @Override
  public String name() {
    return "${artifactId}";
  }

  @Override
  public String description() {
    return "${artifactId}: a vertx-web Router on portshare";
  }

  @Override
  public int defaultPort() {
    return 8080;
  }

  @Override
  public int defaultAdminPort() {
    return 8081;
  }

  @Override
  public List<Option> options() {
    return List.of(Option.string(GREETING, "hello", "what GET /hello answers, before the audience"));
  }

  /** Warmed up (--warmup, 12 s by default) on a route that answers: the default GET / has none here. */
  @Override
  public Optional<WarmUpExchange> warmUp(Settings settings) {
    return Optional.of(WarmUpExchange.httpGet("/hello"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new MainVerticle();
  }
}
