package io.portshare.bench.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of a command that starts a service from its jar: which jar, and the JVM flags it runs with. */
public class ServerJar {

  private final String service;

  @Option(names = "--server-jar", description = "the service jar to start (default: ${DEFAULT-VALUE})")
  Path serverJar;

  @Mixin
  ServerJvmOptions jvm = new ServerJvmOptions();

  /** {@code service} names the module, e.g. rpc-server, whose packaged jar is the default. */
  public ServerJar(String service) {
    this.service = service;
    this.serverJar = Path.of(service, "target", "portshare-" + service + ".jar");
  }

  public Path jar() {
    return serverJar;
  }

  /** The jar, when it is there; else the one line that says how to build it. */
  public Path requireJar() {
    if (!Files.isRegularFile(serverJar)) {
      throw new IllegalArgumentException("no " + service + " jar at " + serverJar + "; build it with ./mvnw -B -pl "
          + service + " -am package -DskipTests, or give --server-jar");
    }
    return serverJar;
  }

  public List<String> jvmOptions() {
    return jvm.list();
  }

  /** The java launcher of this JVM: the started servers run on the same runtime as the bench. */
  public static String java() {
    return ProcessHandle.current().info().command().orElse("java");
  }
}
