package io.portshare.statics;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import java.util.List;

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

  @Override
  public List<Option> options() {
    return StaticSettings.OPTIONS;
  }

  @Override
  public void validate(Settings settings) {
    StaticSettings.of(settings);
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new StaticVerticle();
  }
}
