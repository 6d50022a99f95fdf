package io.portshare.examples.hello;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The smallest service: answers every HTTP request with a greeting. It is the worked example of
 * docs/extending.md; {@code ?delay=MS} holds the answer back, which the launcher test uses.
 */
public final class HelloService implements ServiceDescriptor {

  @Override
  public String name() {
    return "hello";
  }

  @Override
  public String description() {
    return "hello: answers every HTTP request with a greeting";
  }

  @Override
  public int defaultPort() {
    return 8000;
  }

  @Override
  public int defaultAdminPort() {
    return 8001;
  }

  @Override
  public List<Option> options() {
    return List.of(Option.string("greeting", "hello", "what to answer"));
  }

  /** Config of the service's own, beneath the config file's {@code service:} section, which wins. */
  @Override
  public void beforeDeployingVerticle(DeploymentOptions options) {
    options.setConfig(new JsonObject().put("from-hook", true).put("farewell", "bye"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new HelloVerticle();
  }
}
