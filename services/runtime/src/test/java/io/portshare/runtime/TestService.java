package io.portshare.runtime;

/** A service made for a test: its name and what it does, on ports the kernel picks; it brings its verticle. */
public abstract class TestService implements ServiceDescriptor {

  private final String name;
  private final String does;

  protected TestService(String name, String does) {
    this.name = name;
    this.does = does;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return name + ": " + does;
  }

  @Override
  public int defaultPort() {
    return 0;
  }

  @Override
  public int defaultAdminPort() {
    return 0;
  }
}
