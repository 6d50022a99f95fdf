package io.portshare.bench.staticfiles;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.server.ServerProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A server under test, as the driver started it: its name in the tables, its port, its processes. */
public record Peer(String name, int port, ServerProcesses processes) implements AutoCloseable {

  /** A command ready once its admin port says so (static-server: PORT+1). */
  public static Peer withAdmin(String name, int port, List<String> command, Path logDir) throws IOException {
    return new Peer(name, port, ServerProcesses.start(List.of(command), port + 1, logDir, logName(name)));
  }

  /**
   * nginx from the template, run in the foreground in {@code run} (its configuration, pid file,
   * error log and temp paths; made readable by nginx's workers, which run as another user under root).
   */
  static Peer nginx(String name, String binary, Path template, Path run, Path root, int port, int workers,
      boolean sendfile, Path logDir) throws IOException {
    return nginx(name, binary, template, run, root, port, workers, sendfile, true, logDir);
  }

  /** As above; {@code reuseport} false gives every worker the one listening socket the master opened. */
  public static Peer nginx(String name, String binary, Path template, Path run, Path root, int port, int workers,
      boolean sendfile, boolean reuseport, Path logDir) throws IOException {
    Files.createDirectories(run.resolve("tmp"));
    Site.readable(run, true);
    String conf = NginxConfig.render(Files.readString(template, StandardCharsets.UTF_8), run.toString(),
        root.toString(), port, workers, sendfile, reuseport);
    Path file = run.resolve("nginx.conf");
    Files.writeString(file, conf, StandardCharsets.UTF_8);
    List<String> cmd = List.of(binary, "-c", file.toString(), "-e", run.resolve("error.log").toString());
    return new Peer(name, port, ServerProcesses.startPlain(cmd, "127.0.0.1", port, logDir, logName(name)));
  }

  static String logName(String name) {
    return name.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
  }

  /** CPU time of the server's processes and their children (nginx's workers) so far. */
  public CpuTime cpu() {
    return processes.cpu();
  }

  @Override
  public void close() {
    processes.close();
  }
}
