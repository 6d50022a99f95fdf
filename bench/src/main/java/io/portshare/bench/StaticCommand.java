package io.portshare.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The static-file table. Runs {@code deploy/bench-static.sh} (static-server against nginx, wrk,
 * A/B alternated) and keeps its output next to the RPC reports; with {@code --url} it runs wrk
 * itself against those URLs instead.
 */
@Command(name = "static", mixinStandardHelpOptions = true,
    description = "The static-file table: runs deploy/bench-static.sh, or wrk against --url, and saves the output "
        + "under --out/<timestamp>/static.txt.")
final class StaticCommand implements Callable<Integer> {

  @Option(names = "--script", defaultValue = "deploy/bench-static.sh", description = "the static bench script (default: ${DEFAULT-VALUE})")
  Path script;

  @Option(names = "--url", description = "run wrk against these URLs instead of the script")
  List<String> urls;

  @Option(names = "--duration", defaultValue = "3s", description = "per run: the script's DURATION, or wrk -d (default: ${DEFAULT-VALUE})")
  Duration duration;

  @Option(names = "--rounds", description = "the script's ROUNDS")
  Integer rounds;

  @Option(names = "--connections", defaultValue = "64", description = "the script's CONNS, or wrk -c (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--out", defaultValue = "bench-results", description = "output goes to OUT/<timestamp>/static.txt (default: ${DEFAULT-VALUE})")
  Path out;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Path dir = out.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(dir);
    Path file = dir.resolve("static.txt");
    int code;
    try (PrintWriter tee = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      if (urls != null && !urls.isEmpty()) {
        code = 0;
        for (String url : urls) {
          List<String> cmd = List.of("wrk", "-t", "2", "-c", Integer.toString(connections), "-d",
              duration.toSeconds() + "s", "--latency", url);
          code = Math.max(code, run(new ProcessBuilder(cmd), tee));
        }
      } else {
        if (!Files.isRegularFile(script)) {
          throw new IllegalArgumentException("no static bench script at " + script + "; give --script or --url");
        }
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString());
        pb.environment().put("DURATION", duration.toSeconds() + "s");
        pb.environment().put("CONNS", Integer.toString(connections));
        if (rounds != null) {
          pb.environment().put("ROUNDS", Integer.toString(rounds));
        }
        code = run(pb, tee);
      }
    }
    System.out.println("written: " + file);
    return code == 0 ? 0 : 1;
  }

  private static int run(ProcessBuilder pb, PrintWriter tee) throws IOException, InterruptedException {
    pb.redirectErrorStream(true);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot run " + pb.command().get(0) + ": " + e.getMessage());
    }
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        System.out.println(line);
        tee.println(line);
        lines.add(line);
      }
    }
    return p.waitFor();
  }
}
