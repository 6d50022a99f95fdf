package io.portshare.bench.ledger;

import io.portshare.bench.results.OutDir;
import io.portshare.bench.server.CEchoPeer;
import io.portshare.bench.server.ServerJvmOptions;
import io.portshare.bench.server.ServiceJars;
import io.portshare.bench.staticfiles.HttpTools;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;

/**
 * The options of a command that measures both portshare services beside their peers (ledger, latency,
 * seeds): the services' packaged jars and the JVM flags they run with, the C echo server, nginx and wrk,
 * and the folder of the run's reports. One mixin, so that these commands declare them once and alike.
 */
public final class ServersAndReports {

  @Mixin
  ServiceJars jars = new ServiceJars();

  @Mixin
  ServerJvmOptions serverJvmOptions;

  @Mixin
  CEchoPeer cEcho = new CEchoPeer();

  @Mixin
  HttpTools tools = new HttpTools();

  @Mixin
  OutDir reports = new OutDir();

  /** With the JVM flags {@link ServerJvmOptions} gives by default. */
  public ServersAndReports() {
    this.serverJvmOptions = new ServerJvmOptions();
  }

  /** With another command's default JVM flags. */
  public ServersAndReports(String serverJvmDefaults) {
    this.serverJvmOptions = new ServerJvmOptions(serverJvmDefaults);
  }

  /**
   * Where the started servers come from: these jars, JVM flags and C echo server, the JVMs run by {@code java}
   * from {@code classpath}; {@code nginx} and its template null when no row needs nginx.
   */
  public Contenders.Sources sources(String java, String classpath, String nginx, Path nginxTemplate) {
    return new Contenders.Sources(java, serverJvmOptions.list(), classpath, jars.rpcServer(), jars.staticServer(),
        cEcho.path(), nginx, nginxTemplate);
  }

  public ServiceJars jars() {
    return jars;
  }

  public ServerJvmOptions serverJvmOptions() {
    return serverJvmOptions;
  }

  public CEchoPeer cEcho() {
    return cEcho;
  }

  public HttpTools tools() {
    return tools;
  }

  public OutDir reports() {
    return reports;
  }
}
