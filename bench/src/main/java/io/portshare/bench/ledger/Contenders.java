package io.portshare.bench.ledger;

import io.portshare.bench.router.RouterRoutes;
import io.portshare.bench.router.StockRouterVerticle;
import io.portshare.bench.server.ServerProcesses;
import io.portshare.bench.staticfiles.NginxConfig;
import io.portshare.bench.staticfiles.Site;
import io.portshare.runtime.launch.Launcher;
import io.vertx.core.json.JsonObject;
import io.vertx.launcher.application.VertxApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of the ledger and how each starts with one worker: the floor (the C echo server, nginx),
 * plain Netty, the portshare service, stock Vert.x; and variants of a JVM row with other JVM flags
 * or another jar, for an A/B in the same run.
 */
public final class Contenders {

  static final List<String> RPC = List.of("c-echo", "netty-echo", "rpc-server", "rpc-server-vertx", "vertx-echo");
  /**
   * {@code router-portshare} and {@code router-stock} run the same vertx-web routes ({@link RouterRoutes}), on the
   * portshare runtime and on Vert.x's own launcher: what the runtime gives a verticle written on Vert.x's API. Their
   * static route is portshare-web's StaticFiles; the {@code -statichandler} rows are the same with vertx-web's
   * StaticHandler there: what the handler gives, beside what the runtime gives.
   */
  static final List<String> HTTP = List.of("nginx", "netty-http", "static-server", "static-server-vertx",
      "router-portshare", "router-stock", "router-portshare-statichandler", "router-stock-statichandler", "vertx-http");
  /**
   * The rows that have the dynamic route ({@code GET /hello}, {@link Workload#dynamic()}): the Router rows, and nginx
   * answering the same bytes from {@code return 200} as the floor. The file servers have no such route: their cell is
   * left out, not measured (it would be a 404's cost).
   */
  static final List<String> DYNAMIC = List.of("nginx", "router-portshare", "router-stock",
      "router-portshare-statichandler", "router-stock-statichandler");
  /** The row every other row of its kind is compared with. */
  static final String RPC_FLOOR = "c-echo";
  static final String HTTP_FLOOR = "nginx";

  /** A row to start: a built-in {@code base}, with extra JVM flags and its own jar for a variant. */
  public record Spec(String name, String base, String jar, String java, List<String> jvmFlags, List<String> args) {

    public Spec(String name, String base) {
      this(name, base, null, null, List.of(), List.of());
    }

    Contender.Kind kind() {
      return RPC.contains(base) ? Contender.Kind.RPC : Contender.Kind.HTTP;
    }

    /** Whether this row can answer a column: every row of its kind serves the files, the dynamic route only some. */
    boolean serves(Workload w) {
      return w.kind() == kind() && (!w.dynamic() || DYNAMIC.contains(base));
    }

    boolean jvm() {
      return !base.equals("c-echo") && !base.equals("nginx");
    }

    /**
     * {@code LABEL=BASE [jar=PATH] [java=PATH|N] [arg=SERVICE-ARG...] [JVM flag...]}, e.g.
     * {@code rpc-server-parallel=rpc-server -XX:+UseParallelGC}; {@code java} is another JVM's launcher, or N for
     * the installed JDK of release N; each {@code arg} goes to the service's command line.
     */
    static Spec variant(String text) {
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("invalid value for --variant: " + text
            + "; expected LABEL=BASE [jar=PATH] [java=PATH|N] [arg=SERVICE-ARG...] [JVM flags]");
      }
      String name = text.substring(0, eq).trim();
      List<String> words = new ArrayList<>(Arrays.asList(text.substring(eq + 1).trim().split("\\s+")));
      String base = words.remove(0);
      if (!RPC.contains(base) && !HTTP.contains(base) || base.equals("c-echo") || base.equals("nginx")) {
        throw new IllegalArgumentException("invalid value for --variant: " + text + "; BASE is a JVM row: "
            + String.join(", ", RPC.subList(1, RPC.size())) + ", " + String.join(", ", HTTP.subList(1, HTTP.size())));
      }
      String jar = null;
      String java = null;
      List<String> args = new ArrayList<>();
      while (!words.isEmpty() && words.get(0).matches("(jar|java|arg)=.*")) {
        String w = words.remove(0);
        if (w.startsWith("jar=")) {
          jar = w.substring(4);
        } else if (w.startsWith("java=")) {
          java = w.substring(5);
        } else {
          args.add(w.substring(4));
        }
      }
      return new Spec(name, base, jar, java, List.copyOf(words), List.copyOf(args));
    }
  }

  /** Where the servers come from, and the flags every JVM row runs with. */
  public record Sources(String java, List<String> jvmOptions, String classpath, Path rpcServerJar, Path staticServerJar,
      Path cEcho, String nginx, Path nginxTemplate) {}

  private final Sources sources;
  private final Path site;
  private final Path scratch;
  private final Path logs;
  private final Pinning pinning;

  /** Rows started unpinned (the latency command's, the tests'). */
  public Contenders(Sources sources, Path site, Path scratch, Path logs) {
    this(sources, site, scratch, logs, Pinning.SHARED);
  }

  public Contenders(Sources sources, Path site, Path scratch, Path logs, Pinning pinning) {
    this.pinning = pinning;
    this.sources = sources;
    this.site = site;
    this.scratch = scratch;
    this.logs = logs;
  }

  private static final String STATIC_HANDLER = "-" + RouterRoutes.FileHandler.STATIC_HANDLER.label();

  /** The command line a row starts with, behind the pinning's prefix. */
  List<String> command(Spec s, int port) throws IOException {
    List<String> cmd = new ArrayList<>(pinning.serverPrefix());
    cmd.addAll(unpinned(s, port));
    return cmd;
  }

  /** The command line a row starts with (nginx's is run from a rendered configuration). */
  private List<String> unpinned(Spec s, int port) throws IOException {
    String p = Integer.toString(port);
    List<String> cmd = new ArrayList<>();
    switch (s.base()) {
      case "c-echo" -> {
        return List.of(sources.cEcho().toString(), "-p", p, "-t", "1");
      }
      case "nginx" -> {
        Path run = scratch.resolve("nginx-" + s.name());
        Files.createDirectories(run.resolve("tmp"));
        Files.setPosixFilePermissions(run, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        String conf = NginxConfig.render(Files.readString(sources.nginxTemplate(), StandardCharsets.UTF_8),
            run.toString(), site.toString(), port, 1, true);
        Path file = run.resolve("nginx.conf");
        Files.writeString(file, conf, StandardCharsets.UTF_8);
        return List.of(sources.nginx(), "-c", file.toString(), "-e", run.resolve("error.log").toString());
      }
      default -> {
        cmd.add(java(s, sources.java()));
        cmd.addAll(sources.jvmOptions());
        cmd.addAll(s.jvmFlags());
      }
    }
    switch (s.base()) {
      case "rpc-server", "static-server", "rpc-server-vertx", "static-server-vertx" -> {
        boolean rpc = s.kind() == Contender.Kind.RPC;
        Path jar = s.jar() != null ? Path.of(s.jar()) : rpc ? sources.rpcServerJar() : sources.staticServerJar();
        cmd.addAll(List.of("-jar", jar.toString(), "--host", "0.0.0.0", "--port", p,
            "--admin-port", Integer.toString(port + 1), "--instances", "1", "--mode", "reuseport"));
        if (!rpc) {
          cmd.addAll(List.of("--root", site.toString()));
        }
        if (s.base().endsWith("-vertx")) {
          cmd.addAll(List.of("--engine", "vertx"));
        }
        cmd.addAll(s.args());
      }
      case "router-portshare", "router-portshare-statichandler" -> {
        cmd.addAll(List.of("-cp", s.jar() != null ? s.jar() : sources.classpath(), Launcher.class.getName(),
            "--service", "router", "--host", "0.0.0.0", "--port", p, "--admin-port", Integer.toString(port + 1),
            "--instances", "1", "--mode", "reuseport", "--root", site.toString()));
        if (s.base().endsWith(STATIC_HANDLER)) {
          cmd.addAll(List.of("--files", RouterRoutes.FileHandler.STATIC_HANDLER.label()));
        }
        cmd.addAll(s.args());
      }
      case "router-stock", "router-stock-statichandler" -> {
        // Vert.x's own launcher, one event loop as every row has; no portshare class on its path but the routes.
        JsonObject conf = new JsonObject().put("port", port).put("root", site.toString());
        if (s.base().endsWith(STATIC_HANDLER)) {
          conf.put("files", RouterRoutes.FileHandler.STATIC_HANDLER.label());
        }
        cmd.addAll(List.of("-cp", s.jar() != null ? s.jar() : sources.classpath(), VertxApplication.class.getName(),
            StockRouterVerticle.class.getName(), "-instances", "1",
            "-options", "{\"eventLoopPoolSize\":1,\"preferNativeTransport\":true}", "-conf", conf.encode()));
        cmd.addAll(s.args());
      }
      default -> {
        cmd.addAll(List.of("-cp", s.jar() != null ? s.jar() : sources.classpath(), mainClass(s.base()), p));
        if (s.kind() == Contender.Kind.HTTP) {
          cmd.add(site.toString());
        }
      }
    }
    return cmd;
  }

  /**
   * The launcher of a row: the bench's own JVM, a path, or for {@code java=N} the newest installed JDK
   * of release N or later, found by looking under the system's JVM directory (as deploy/java.sh does).
   */
  static String java(Spec s, String own) throws IOException {
    if (s.java() == null) {
      return own;
    }
    if (!s.java().matches("\\d+")) {
      return s.java();
    }
    int want = Integer.parseInt(s.java());
    Path best = null;
    int bestMajor = 0;
    Path jvms = Path.of(System.getenv().getOrDefault("PORTSHARE_JVM_DIR", "/usr/lib/jvm"));
    try (var homes = Files.list(jvms)) {
      for (Path home : homes.sorted().toList()) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/java"))) {
          continue;
        }
        var m = java.util.regex.Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
        if (m.find()) {
          int major = Integer.parseInt(m.group(1));
          if (major >= want && major > bestMajor) {
            best = home;
            bestMajor = major;
          }
        }
      }
    }
    if (best == null) {
      throw new IllegalArgumentException("invalid value for --variant " + s.name() + ": no JDK of release " + want
          + " or later under " + jvms);
    }
    return best.resolve("bin/java").toString();
  }

  private static String mainClass(String base) {
    return switch (base) {
      case "netty-echo" -> NettyEcho.class.getName();
      case "vertx-echo" -> VertxEcho.class.getName();
      case "netty-http" -> NettyHttp.class.getName();
      case "vertx-http" -> VertxHttp.class.getName();
      default -> throw new IllegalArgumentException("no main class for " + base);
    };
  }

  public Contender start(Spec s, int port) throws IOException {
    List<String> cmd = command(s, port);
    ServerProcesses p = runtimeRow(s.base())
        ? ServerProcesses.start(List.of(cmd), port + 1, logs, s.name())
        : ServerProcesses.startPlain(cmd, "127.0.0.1", port, logs, s.name());
    return new Contender(s.name(), s.kind(), s.jvm(), java(s, sources.java()), port, p, s::serves);
  }

  /** Whether a row runs on the portshare runtime: it has an admin port that says when it is ready. */
  static boolean runtimeRow(String base) {
    return base.startsWith("rpc-server") || base.startsWith("static-server") || base.startsWith("router-portshare");
  }

  /** The files the static rows serve (index.html from static-server's jar), readable by nginx's worker. */
  public static void makeSite(Path site, List<String> paths, Path staticServerJar) throws IOException {
    Site.create(site, paths, staticServerJar);
  }
}
