package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.portshare.kit.AdminPort;
import io.portshare.kit.Ci;
import io.portshare.kit.FreePorts;
import io.portshare.kit.HttpWire;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.ServiceProcess;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The platform as a Vert.x developer outside this repository takes it: the archetype writes a
 * project in a directory of its own, which builds offline on nothing but the platform's artifacts
 * (the BOM, the runtime, portshare-test) and what the reactor build already fetched, and whose jar
 * runs under the supervisor with everything the runtime promises; and a start.vertx.io-shaped
 * project becomes a portshare service by the change docs/extending.md describes.
 *
 * <p>In CI only {@code ./mvnw -B verify} runs, so nothing of this build is in the local
 * repository: the reactor's own jars and poms are installed, with one {@code ./mvnw -o} run of
 * {@code install:install-file} executions, into a local repository of this test's own, whose tail
 * (Maven's {@code maven.repo.local.tail}, read-only) is the build's local repository with every
 * third-party artifact and plugin the reactor fetched. The build's repository is left as it was,
 * and a 0.1.0 another checkout installed there cannot stand in for this one.
 */
class ArchetypeProjectTest {

  private static final String GROUP = "com.example";
  private static final String ARTIFACT = "greeter";
  private static final String PACKAGE = "com.example.greeter";
  private static final String VERSION = "0.1.0";
  /** maven-archetype-plugin at the version the archetype module builds with (its pom): the reactor fetched it. */
  private static final String ARCHETYPE_PLUGIN = "org.apache.maven.plugins:maven-archetype-plugin:3.4.1";
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
  private static final Pattern STARTED = Pattern.compile(ARTIFACT + " #(\\d) started \\(pid (\\d+)");

  @TempDir
  static Path work;
  private static Path localRepository;
  private static Path tail;

  /** The reactor's jars and poms, into this test's own local repository: what {@code ./mvnw install} would put there. */
  @BeforeAll
  static void installThePlatformsArtifacts() throws Exception {
    Path root = Jars.ROOT;
    tail = Path.of(System.getProperty("portshare.maven.repo.local", "").isBlank()
        ? System.getProperty("user.home") + "/.m2/repository"
        : System.getProperty("portshare.maven.repo.local"));
    assertThat(tail).as("the build's local repository").isDirectory();
    localRepository = Files.createDirectories(work.resolve("repository"));
    // file, pom, packaging (null: the pom's): the parent (the runtime's and portshare-test's), the BOM,
    // the runtime, portshare-test, portshare-web and the archetype, whose jar the plugin reads as a plain jar.
    List<String[]> artifacts = List.of(
        new String[] {"pom.xml", "pom.xml", null},
        new String[] {"services/bom/pom.xml", "services/bom/pom.xml", null},
        new String[] {"services/runtime/target/portshare-runtime-" + VERSION + ".jar", "services/runtime/pom.xml", null},
        new String[] {"services/test/target/portshare-test-" + VERSION + ".jar", "services/test/pom.xml", null},
        new String[] {"services/web/target/portshare-web-" + VERSION + ".jar", "services/web/pom.xml", null},
        new String[] {"services/archetype/target/portshare-archetype-" + VERSION + ".jar", "services/archetype/pom.xml", "jar"});
    StringBuilder executions = new StringBuilder();
    int n = 0;
    for (String[] a : artifacts) {
      Path file = root.resolve(a[0]);
      assertThat(file).as("built by the reactor before this module (./mvnw -B package)").isRegularFile();
      executions.append("<execution><id>a").append(n++).append("</id><phase>validate</phase>")
          .append("<goals><goal>install-file</goal></goals><configuration>")
          .append("<file>").append(file).append("</file><pomFile>").append(root.resolve(a[1])).append("</pomFile>")
          .append(a[2] == null ? "" : "<packaging>" + a[2] + "</packaging>")
          .append("</configuration></execution>\n");
    }
    Path installer = Files.createDirectories(work.resolve("installer"));
    Files.writeString(installer.resolve("pom.xml"), """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>local.check</groupId><artifactId>installer</artifactId><version>1</version>
          <packaging>pom</packaging>
          <build><plugins><plugin>
            <groupId>org.apache.maven.plugins</groupId><artifactId>maven-install-plugin</artifactId>
            <version>3.2.0</version>
            <executions>
        %s    </executions>
          </plugin></plugins></build>
        </project>
        """.formatted(executions));
    mvn(installer, Duration.ofMinutes(2), "-q", "validate");
    for (String a : List.of("portshare-parent", "portshare-bom", "portshare-runtime", "portshare-test", "portshare-web",
        "portshare-archetype")) {
      assertThat(localRepository.resolve("io/portshare/" + a + "/" + VERSION)).as(a + " installed").isDirectory();
    }
  }

  @Test
  void aProjectFromTheArchetypeBuildsOfflineAndServesUnderTheSupervisor() throws Exception {
    Path project = generate("generated");
    checkGeneratedFiles(project);

    mvn(project, BUILD_TIMEOUT, "-q", "package");
    assertThat(Files.readString(project.resolve("target/surefire-reports/TEST-" + PACKAGE + ".MainVerticleTest.xml")))
        .contains("tests=\"4\"").contains("failures=\"0\"").contains("errors=\"0\"").contains("skipped=\"0\"");
    Path jar = project.resolve("target/" + ARTIFACT + ".jar");

    Path config = Files.writeString(work.resolve("from-the-test.yaml"), """
        greeting: hi
        service:
          audience: the offline build
          limits:
            items: 3
        """);
    int port = FreePorts.block(3);
    int admin = port + 1;
    // SIGHUP at its default whatever runs the tests (nohup would leave it ignored across exec).
    try (ServiceProcess supervisor = ServiceProcess.launchJar(List.of("env", "--default-signal=HUP"), jar, Map.of(),
        "--supervise", "2", "--port", Integer.toString(port), "--admin-port", Integer.toString(admin),
        "--warmup", "0", "--config", config.toString(), "--max-connection-age", "2s", "--log-format", "text")) {
      awaitBothReady(supervisor, admin);

      HttpWire.Response hello = HttpWire.get(port, "/hello");
      assertThat(hello.status()).isEqualTo(200);
      assertThat(hello.text()).as("the greeting option and config()'s audience, from --config").isEqualTo("hi, the offline build\n");
      assertThat(new JsonObject(HttpWire.get(port, "/config").text())).as("config() is the file's service: section")
          .isEqualTo(new JsonObject().put("audience", "the offline build").put("limits", new JsonObject().put("items", 3)));
      HttpWire.Response index = HttpWire.get(port, "/");
      assertThat(index.status()).as("the webroot's index, by portshare-web's StaticFiles").isEqualTo(200);
      assertThat(index.header("etag")).isNotBlank();
      assertThat(index.text()).contains("<title>" + ARTIFACT + "</title>");
      for (int a : List.of(admin, admin + 1)) {
        String ready = new AdminPort(a).get("/health/ready");
        assertThat(ready).as("/health/ready of process on admin port %d names the service's own check", a)
            .contains("\"id\":\"downstream\"").contains("\"outcome\":\"UP\"");
        PrometheusText metrics = new AdminPort(a).metrics();
        assertThat(metrics.value("portshare_info", "service", ARTIFACT, "mode", "reuseport", "instances", "1")).contains(1.0);
        assertThat(metrics.named("portshare_connections_accepted_total")).isNotEmpty();
      }

      // --max-connection-age: the first answer on a keep-alive connection past its age (2 s, +10% at
      // most) says Connection: close, and the connection closes after it.
      try (HttpWire keepAlive = new HttpWire(port)) {
        HttpWire.Response young = keepAlive.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n").read(false);
        assertThat(young.status()).isEqualTo(200);
        assertThat(young.header("connection")).as("while young").isNull();
        Thread.sleep(2_300); // past 2 s + 10% from the accept, which came before the connect returned
        HttpWire.Response old = keepAlive.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n").read(false);
        assertThat(old.status()).isEqualTo(200);
        assertThat(old.header("connection")).as("the first answer past its age").isEqualTo("close");
        assertThat(keepAlive.closedByServer(20_000)).as("closed after that answer").isTrue();
      }

      // SIGHUP replaces both children, one at a time, while one-request connections keep coming.
      List<String> before = startedPids(supervisor);
      assertThat(before).hasSize(2);
      Load load = new Load(port);
      load.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> load.ok.get() > 20);
      new ProcessBuilder("kill", "-HUP", Long.toString(supervisor.pid())).start().waitFor();
      await().atMost(Duration.ofSeconds(180)).until(() -> supervisor.output().contains("supervisor: every child replaced"));
      long atRoll = load.ok.get();
      await().atMost(Duration.ofSeconds(30)).until(() -> load.ok.get() > atRoll + 20);
      load.finish();
      List<String> after = startedPids(supervisor);
      assertThat(after).as(supervisor.output()).hasSize(4);
      assertThat(after.subList(2, 4)).doesNotContainAnyElementsOf(before);
      assertThat(supervisor.output()).contains(ARTIFACT + " #0 (pid " + before.get(0) + ") drained and exited with code 0");
      assertThat(load.failed).as("failed among %d requests during the hand-over", load.ok.get()).isEmpty();
      awaitBothReady(supervisor, admin);

      supervisor.terminate();
      assertThat(supervisor.awaitExit(Duration.ofSeconds(60))).as(supervisor.output()).isZero();
      assertThat(supervisor.output()).contains("supervisor: all stopped");
    }
  }

  /**
   * The generated project's Kubernetes base renders on the component it carries, and systemd reads
   * its units. kubectl and systemd-analyze are CI's (.ci/run installs them): without one a local
   * run skips this test, saying which, and CI fails it.
   */
  @Test
  void theGeneratedBaseRendersOnItsOwnComponentAndSystemdReadsItsUnits() throws Exception {
    Path project = generate("rendered");
    Jars.requireKubectl();
    List<HasMetadata> objects = ManifestSchemaTest.render(project.resolve("k8s/base"));
    assertThat(objects).extracting(HasMetadata::getKind).containsExactlyInAnyOrder("ConfigMap", "Service",
        "Deployment", "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy");
    ManifestSchemaTest.checkDeployRules(objects, true);
    Deployment d = ManifestSchemaTest.of(objects, Deployment.class).get(0);
    assertThat(d.getMetadata().getName()).isEqualTo(ARTIFACT);
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getImage()).isEqualTo(ARTIFACT + ":untagged");
    assertThat(c.getArgs()).containsExactly("--config", "/etc/portshare/" + ARTIFACT + ".yaml");
    assertThat(c.getReadinessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(8081);
    assertThat(ManifestSchemaTest.of(objects, ConfigMap.class).get(0).getData()).containsOnlyKeys(ARTIFACT + ".yaml");

    Ci.require(Jars.commandWorks("systemd-analyze", "--version"),
        "systemd-analyze is not installed (Debian's systemd package; .ci/run installs it): units not verified");
    Path units = Files.createDirectories(work.resolve("units"));
    Path socket = Files.copy(project.resolve("systemd/greeter@.socket"), units.resolve("greeter@0.socket"));
    Path service = Files.copy(project.resolve("systemd/greeter@.service"), units.resolve("greeter@0.service"));
    Process p = new ProcessBuilder("systemd-analyze", "verify", "--man=no", socket.toString(), service.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("systemd-analyze verify said:%n%s", out).isZero();
    assertThat(out.lines().filter(l -> l.contains("greeter@"))).as("what systemd-analyze says about the units").isEmpty();
  }

  /** A project from the archetype in {@code work/NAME/greeter}, offline. */
  private static Path generate(String name) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    mvn(dir, Duration.ofMinutes(2), "-q", ARCHETYPE_PLUGIN + ":generate", "-DarchetypeGroupId=io.portshare",
        "-DarchetypeArtifactId=portshare-archetype", "-DarchetypeVersion=" + VERSION, "-DgroupId=" + GROUP,
        "-DartifactId=" + ARTIFACT, "-Dpackage=" + PACKAGE, "-Dversion=1.0");
    return dir.resolve(ARTIFACT);
  }

  /**
   * docs/extending.md, "Add portshare to a Vert.x project you have", applied to what start.vertx.io
   * writes (a pom on vertx-stack-depchain, a VerticleBase with a Router): the BOM, the runtime and
   * logback, the launcher as the main class, ServiceVerticle and service.listen, a descriptor.
   */
  @Test
  void aStartVertxProjectBecomesAPortshareServiceByTheDocumentedChange() throws Exception {
    Path project = Files.createDirectories(work.resolve("starter"));
    Path src = Files.createDirectories(project.resolve("src/main/java/com/example/starter"));
    Files.writeString(project.resolve("pom.xml"), STARTER_POM);
    Files.writeString(src.resolve("MainVerticle.java"), STARTER_VERTICLE);

    // 1. The dependencies: portshare-bom ahead of the depchain, the runtime and logback; the launcher
    //    replaces VertxApplication, and with it goes vertx-launcher-application.
    edit(project.resolve("pom.xml"),
        "    <dependencies>\n      <dependency>\n        <groupId>io.vertx</groupId>\n        <artifactId>vertx-stack-depchain</artifactId>",
        """
            <dependencies>
              <dependency>
                <groupId>io.portshare</groupId>
                <artifactId>portshare-bom</artifactId>
                <version>0.1.0</version>
                <type>pom</type>
                <scope>import</scope>
              </dependency>
              <dependency>
                <groupId>io.vertx</groupId>
                <artifactId>vertx-stack-depchain</artifactId>""".indent(4).stripTrailing());
    edit(project.resolve("pom.xml"), """
            <dependency>
              <groupId>io.vertx</groupId>
              <artifactId>vertx-launcher-application</artifactId>
            </dependency>
        """, """
            <dependency>
              <groupId>io.portshare</groupId>
              <artifactId>portshare-runtime</artifactId>
            </dependency>
            <dependency>
              <groupId>ch.qos.logback</groupId>
              <artifactId>logback-classic</artifactId>
              <version>1.5.38</version>
            </dependency>
        """);
    // 2. The main class.
    edit(project.resolve("pom.xml"), "<launcher.class>io.vertx.launcher.application.VertxApplication</launcher.class>",
        "<launcher.class>io.portshare.runtime.launch.Launcher</launcher.class>");
    // 3. The verticle: ServiceVerticle, and the listen through the runtime with the options it prepared.
    Path verticle = src.resolve("MainVerticle.java");
    edit(verticle, "import io.vertx.core.VerticleBase;", "import io.portshare.runtime.ServiceVerticle;");
    edit(verticle, "extends VerticleBase", "extends ServiceVerticle");
    edit(verticle, "return vertx.createHttpServer()", "return service.listen(vertx.createHttpServer(service.httpServerOptions())");
    edit(verticle, ".requestHandler(router)\n      .listen(8888)", ".requestHandler(router))");
    // 4. A descriptor and its registration.
    Files.writeString(src.resolve("MainService.java"), """
        package com.example.starter;

        import io.portshare.runtime.ServiceDescriptor;
        import io.portshare.runtime.ServiceVerticle;

        public final class MainService implements ServiceDescriptor {
          public String name() { return "starter"; }
          public String description() { return "starter: the start.vertx.io project on portshare"; }
          public int defaultPort() { return 8888; }
          public int defaultAdminPort() { return 8889; }
          public ServiceVerticle newVerticle() { return new MainVerticle(); }
        }
        """);
    Path services = Files.createDirectories(project.resolve("src/main/resources/META-INF/services"));
    Files.writeString(services.resolve("io.portshare.runtime.ServiceDescriptor"), "com.example.starter.MainService\n");

    mvn(project, BUILD_TIMEOUT, "-q", "package");
    Path jar = project.resolve("target/starter-1.0.0-SNAPSHOT-fat.jar");
    try (ServiceProcess service = ServiceProcess.launchJar(jar, Map.of(), "--port", "0", "--admin-port", "0",
        "--instances", "2", "--log-format", "text")) {
      service.awaitReady(Duration.ofSeconds(90));
      HttpWire.Response hello = HttpWire.get(service.port(), "/hello");
      assertThat(hello.status()).isEqualTo(200);
      assertThat(hello.text()).isEqualTo("Hello from Vert.x!");
      assertThat(service.admin().ready()).as("/health/ready").isTrue();
      assertThat(service.admin().metrics().value("portshare_info", "service", "starter", "instances", "2")).contains(1.0);
      service.terminate();
      assertThat(service.awaitExit(Duration.ofSeconds(60))).as(service.output()).isZero();
    }
  }

  /** Every file the archetype writes, with its Velocity placeholders filled and its literal dollars kept. */
  private static void checkGeneratedFiles(Path project) throws IOException {
    Set<String> files;
    try (Stream<Path> walk = Files.walk(project)) {
      files = walk.filter(Files::isRegularFile).map(p -> project.relativize(p).toString())
          .collect(Collectors.toCollection(TreeSet::new));
    }
    String pkg = "src/main/java/com/example/greeter/";
    assertThat(files).containsExactlyInAnyOrder(".dockerignore", ".gitignore", "Containerfile", "README.md", "pom.xml",
        "config/greeter.yaml", pkg + "MainService.java", pkg + "MainVerticle.java",
        "src/main/resources/META-INF/services/io.portshare.runtime.ServiceDescriptor",
        "src/main/resources/webroot/index.html",
        "src/test/java/com/example/greeter/MainVerticleTest.java", "src/test/resources/logback-test.xml",
        "k8s/base/kustomization.yaml", "k8s/base/values.yaml", "k8s/base/greeter.yaml",
        "k8s/components/service/kustomization.yaml", "k8s/components/service/deployment.yaml",
        "k8s/components/service/service.yaml", "k8s/components/service/hpa.yaml", "k8s/components/service/pdb.yaml",
        "k8s/components/service/networkpolicy.yaml", "systemd/greeter@.service", "systemd/greeter@.socket");
    for (String f : files) {
      String text = Files.readString(project.resolve(f));
      assertThat(text).as(f).doesNotContain("symbol_dollar", "#set", "${d}", "$h2", "${artifactId}", "${package}",
          "__artifactId__");
    }
    String pom = Files.readString(project.resolve("pom.xml"));
    assertThat(pom).startsWith("<?xml").contains("<artifactId>greeter</artifactId>", "<version>1.0</version>",
        "<outputFile>${project.build.directory}/${project.artifactId}.jar</outputFile>",
        "<Main-Class>${main.class}</Main-Class>", "<main.class>io.portshare.runtime.launch.Launcher</main.class>",
        "<version>${portshare.version}</version>", "ServicesResourceTransformer",
        "<resource>META-INF/io.netty.versions.properties</resource>", "<maven.compiler.release>17</maven.compiler.release>");
    assertThat(pom.indexOf("<artifactId>junit-bom</artifactId>")).as("JUnit's BOM ahead of portshare's")
        .isPositive().isLessThan(pom.indexOf("<artifactId>portshare-bom</artifactId>"));
    assertThat(Files.readString(project.resolve(pkg + "MainVerticle.java"))).startsWith("package com.example.greeter;");
    assertThat(Files.readString(project.resolve("src/main/resources/META-INF/services/io.portshare.runtime.ServiceDescriptor")))
        .isEqualTo("com.example.greeter.MainService\n");
    String unit = Files.readString(project.resolve("systemd/greeter@.service"));
    assertThat(unit).contains("ExecStart=/bin/sh -c 'exec java $$JAVA_OPTS -jar /opt/greeter/greeter.jar \\\n",
        "--admin-port $$(($$PORTSHARE_PORT + 1 + %i))'",
        "systemctl enable --now greeter@{0..$(($(nproc) - 1))}.socket", "($$ is a literal $ for systemd)",
        "EnvironmentFile=-/etc/default/greeter\n");
    assertThat(unit).startsWith("# greeter, one process per CPU");
    assertThat(Files.readString(project.resolve("systemd/greeter@.socket"))).contains("\nListenStream=8080\n");
    String readme = Files.readString(project.resolve("README.md"));
    assertThat(readme).startsWith("# greeter\n").contains("\n## Readiness\n", "**`downstream`**",
        "java -jar target/greeter.jar --config config/greeter.yaml");
    assertThat(Files.readString(project.resolve("config/greeter.yaml"))).contains("\nservice:\n  audience: world\n");
    assertThat(Files.readString(project.resolve("Containerfile"))).contains("COPY target/greeter.jar /app/app.jar");
    assertThat(Files.readString(project.resolve(".dockerignore"))).contains("!target/greeter.jar");
    assertThat(Files.readString(project.resolve("k8s/base/kustomization.yaml")))
        .contains("  - ../components/service\n", "  - name: greeter-config\n", "      - greeter.yaml\n");
    assertThat(Files.readString(project.resolve("k8s/base/values.yaml")))
        .contains("  name: greeter\n", "  config: greeter.yaml\n", "  port: 8080\n", "  adminPort: 8081\n");
    try (Stream<Path> component = Files.list(Jars.ROOT.resolve("k8s/components/service"))) {
      for (Path f : (Iterable<Path>) component::iterator) {
        assertThat(project.resolve("k8s/components/service").resolve(f.getFileName().toString()))
            .as("the shared component, as it is in this repository").hasSameTextualContentAs(f);
      }
    }
  }

  private static void awaitBothReady(ServiceProcess supervisor, int admin) {
    await().atMost(Duration.ofSeconds(120)).until(() -> {
      if (!supervisor.isAlive()) {
        throw new AssertionError("the supervisor exited:\n" + supervisor.output());
      }
      return new AdminPort(admin).ready() && new AdminPort(admin + 1).ready();
    });
  }

  private static List<String> startedPids(ServiceProcess supervisor) {
    List<String> pids = new ArrayList<>();
    Matcher m = STARTED.matcher(supervisor.output());
    while (m.find()) {
      pids.add(m.group(2));
    }
    return pids;
  }

  /** GET /hello on a new connection (Connection: close) in a loop until stopped; what failed, and how. */
  private static final class Load extends Thread {
    final AtomicBoolean runs = new AtomicBoolean(true);
    final AtomicLong ok = new AtomicLong();
    final List<String> failed = new CopyOnWriteArrayList<>();
    private final int port;

    Load(int port) {
      this.port = port;
      setDaemon(true);
    }

    @Override
    public void run() {
      while (runs.get()) {
        try {
          HttpWire.Response r = HttpWire.get(port, "/hello");
          if (r.status() == 200 && r.text().equals("hi, the offline build\n")) {
            ok.incrementAndGet();
          } else {
            failed.add(r.status() + " " + r.text());
          }
        } catch (IOException e) {
          failed.add(e.toString());
        }
      }
    }

    void finish() throws InterruptedException {
      runs.set(false);
      join(60_000);
    }
  }

  /** Replaces {@code before}, which must be there once, with {@code after}. */
  private static void edit(Path file, String before, String after) throws IOException {
    String text = Files.readString(file);
    assertThat(text).as("%s holds the text the change replaces", file).contains(before);
    assertThat(text.indexOf(before)).isEqualTo(text.lastIndexOf(before));
    Files.writeString(file, text.replace(before, after));
  }

  /**
   * The repository's wrapper, offline, on this test's local repository with the build's as its tail;
   * fails with the output unless it exits 0 in time. A missing java or wrapper fails as well.
   */
  private static String mvn(Path dir, Duration timeout, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Jars.ROOT.resolve("mvnw").toString(), "-B", "-o",
        "-Dmaven.repo.local=" + localRepository, "-Dmaven.repo.local.tail=" + tail));
    command.addAll(List.of(args));
    return CommandRun.inDir(dir, timeout, command);
  }

  /**
   * What start.vertx.io writes for Vert.x 5.0.7 with vertx-web, less its test and exec-maven-plugin,
   * with the plugin versions the reactor's build fetched (the build is offline).
   */
  private static final String STARTER_POM = """
      <?xml version="1.0" encoding="UTF-8"?>
      <project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
               xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
        <modelVersion>4.0.0</modelVersion>

        <groupId>com.example</groupId>
        <artifactId>starter</artifactId>
        <version>1.0.0-SNAPSHOT</version>

        <properties>
          <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          <maven-compiler-plugin.version>3.15.0</maven-compiler-plugin.version>
          <maven-shade-plugin.version>3.6.2</maven-shade-plugin.version>
          <maven-surefire-plugin.version>3.6.1</maven-surefire-plugin.version>
          <maven-resources-plugin.version>3.5.0</maven-resources-plugin.version>
          <maven-jar-plugin.version>3.5.1</maven-jar-plugin.version>
          <vertx.version>5.0.7</vertx.version>
          <main.verticle>com.example.starter.MainVerticle</main.verticle>
          <launcher.class>io.vertx.launcher.application.VertxApplication</launcher.class>
        </properties>

        <dependencyManagement>
          <dependencies>
            <dependency>
              <groupId>io.vertx</groupId>
              <artifactId>vertx-stack-depchain</artifactId>
              <version>${vertx.version}</version>
              <type>pom</type>
              <scope>import</scope>
            </dependency>
          </dependencies>
        </dependencyManagement>

        <dependencies>
          <dependency>
            <groupId>io.vertx</groupId>
            <artifactId>vertx-launcher-application</artifactId>
          </dependency>
          <dependency>
            <groupId>io.vertx</groupId>
            <artifactId>vertx-web</artifactId>
          </dependency>
        </dependencies>

        <build>
          <plugins>
            <plugin>
              <artifactId>maven-resources-plugin</artifactId>
              <version>${maven-resources-plugin.version}</version>
            </plugin>
            <plugin>
              <artifactId>maven-jar-plugin</artifactId>
              <version>${maven-jar-plugin.version}</version>
            </plugin>
            <plugin>
              <artifactId>maven-compiler-plugin</artifactId>
              <version>${maven-compiler-plugin.version}</version>
              <configuration>
                <release>17</release>
              </configuration>
            </plugin>
            <plugin>
              <artifactId>maven-shade-plugin</artifactId>
              <version>${maven-shade-plugin.version}</version>
              <executions>
                <execution>
                  <phase>package</phase>
                  <goals>
                    <goal>shade</goal>
                  </goals>
                  <configuration>
                    <transformers>
                      <transformer implementation="org.apache.maven.plugins.shade.resource.ManifestResourceTransformer">
                        <manifestEntries>
                          <Main-Class>${launcher.class}</Main-Class>
                          <Main-Verticle>${main.verticle}</Main-Verticle>
                        </manifestEntries>
                      </transformer>
                      <transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
                    </transformers>
                    <outputFile>${project.build.directory}/${project.artifactId}-${project.version}-fat.jar</outputFile>
                  </configuration>
                </execution>
              </executions>
            </plugin>
            <plugin>
              <artifactId>maven-surefire-plugin</artifactId>
              <version>${maven-surefire-plugin.version}</version>
            </plugin>
          </plugins>
        </build>
      </project>
      """;

  private static final String STARTER_VERTICLE = """
      package com.example.starter;

      import io.vertx.core.Future;
      import io.vertx.core.VerticleBase;
      import io.vertx.ext.web.Router;

      public class MainVerticle extends VerticleBase {

        @Override
        public Future<?> start() {
          Router router = Router.router(vertx);
          router.get("/hello").handler(ctx -> ctx.response().end("Hello from Vert.x!"));
          return vertx.createHttpServer()
            .requestHandler(router)
            .listen(8888)
            .onSuccess(http -> System.out.println("HTTP server started on port " + http.actualPort()));
        }
      }
      """;
}
