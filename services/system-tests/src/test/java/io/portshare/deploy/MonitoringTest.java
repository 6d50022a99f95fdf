package io.portshare.deploy;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.RpcWire;
import io.portshare.kit.ServiceProcess;
import io.portshare.monitoring.MonitoringCheck;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The operator's side of the metrics, checked for real: the alert rules pass {@code promtool check
 * rules} and their unit tests (each alert firing and not), the PrometheusRule the prod overlay
 * renders (the ServiceMonitor component) holds the same groups, and a real Prometheus scraping a
 * real static-server and rpc-server answers every query of the Grafana dashboard with data and
 * evaluates every rule without error, on series that exist ({@link MonitoringCheck}, which
 * {@code deploy/k8s.sh local-test} also runs against the pods).
 */
class MonitoringTest {

  private static final Path RULES = Jars.ROOT.resolve("deploy/prometheus/portshare-rules.yml");
  private static final Path RULE_TESTS = Jars.ROOT.resolve("deploy/prometheus/portshare-rules-test.yml");

  @Test
  void theRulesPassPromtoolAndTheirUnitTests() throws Exception {
    requireTool("promtool");
    assertThat(run(List.of("promtool", "check", "rules", RULES.toString()))).contains("SUCCESS");
    // Each alert of the rules file has its unit test.
    String tests = Files.readString(RULE_TESTS);
    for (Map<String, Object> rule : rules()) {
      assertThat(tests).as("a unit test of %s", rule.get("alert")).contains("alertname: " + rule.get("alert"));
    }
    assertThat(run(List.of("promtool", "test", "rules", RULE_TESTS.toString()))).contains("SUCCESS");
  }

  @Test
  void theProdOverlayRendersThePrometheusRuleOfTheRulesFile() throws Exception {
    Jars.requireKubectl();
    String rendered = run(List.of("kubectl", "kustomize", Jars.ROOT.resolve("k8s/overlays/prod").toString()));
    Map<String, Object> rule = null;
    for (Object doc : new Yaml().loadAll(rendered)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> o = (Map<String, Object>) doc;
      if ("PrometheusRule".equals(o.get("kind"))) {
        rule = o;
      }
    }
    assertThat(rule).as("a PrometheusRule in:\n%s", rendered).isNotNull();
    Map<String, Object> plain = new Yaml().load(Files.readString(RULES));
    assertThat(rule.get("spec")).as("the PrometheusRule's spec is the rules file").isEqualTo(plain);
  }

  @Test
  void aRealPrometheusAnswersEveryPanelAndEvaluatesEveryRuleOnRealServices(@TempDir Path dir) throws Exception {
    requireTool("prometheus");
    Path root = Files.createDirectories(dir.resolve("site"));
    Files.writeString(root.resolve("index.html"), "<html>monitored</html>\n");
    Map<String, String> env = Map.of("PORTSHARE_WARMUP", "0");
    try (ServiceProcess statics = ServiceProcess.launchJar(Jars.of("static-server"), env, "--port", "0",
            "--admin-port", "0", "--host", "127.0.0.1", "--instances", "2", "--root", root.toString());
        ServiceProcess rpc = ServiceProcess.launchJar(Jars.of("rpc-server"), env, "--port", "0", "--admin-port", "0",
            "--host", "127.0.0.1", "--instances", "2")) {
      statics.awaitReady(Duration.ofSeconds(120));
      rpc.awaitReady(Duration.ofSeconds(120));
      int web = freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(config, "global:\n  scrape_interval: 2s\n  scrape_timeout: 2s\n  evaluation_interval: 2s\n"
          + "rule_files:\n  - " + RULES + "\n"
          + "scrape_configs:\n"
          + "  - job_name: static-server\n    static_configs:\n      - targets: ['127.0.0.1:" + statics.adminPort() + "']\n"
          + "  - job_name: rpc-server\n    static_configs:\n      - targets: ['127.0.0.1:" + rpc.adminPort() + "']\n");
      Process prometheus = new ProcessBuilder("prometheus", "--config.file=" + config,
          "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + web)
          .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
      Traffic traffic = new Traffic(statics.port(), rpc.port());
      try {
        traffic.start();
        // Under traffic, enough successful scrapes of both (up is 0 for one that timed out on a busy
        // machine) for every rate() to have its two samples; then every panel and rule is asked.
        MonitoringCheck check = new MonitoringCheck(URI.create("http://127.0.0.1:" + web), Jars.ROOT);
        assertThat(check.awaitScrapes(List.of("static-server", "rpc-server"), Duration.ofSeconds(180)))
            .as("Prometheus scraped both services (log: %s)", dir.resolve("prometheus.log")).isTrue();
        List<String> failures = check.failures(System.out);
        assertThat(failures).as("dashboard queries and alert rules against the running services").isEmpty();
        // The latency panels show a number for each process under traffic, not NaN: their histograms
        // are scraped with answers in them, and the query reads them as histograms.
        List<String> quantiles = MonitoringCheck.dashboardQueries(Jars.ROOT).values().stream()
            .filter(q -> q.contains("histogram_quantile")).toList();
        assertThat(quantiles).as("p50 and p99 of each service").hasSize(4);
        for (String q : quantiles) {
          JsonArray results = MonitoringCheck.results(check.query(q.replace("$job", ".*").replace("$instance", ".*")));
          assertThat(results).as(q).hasSize(1).allSatisfy(r ->
              assertThat(Double.parseDouble(((JsonObject) r).getJsonArray("value").getString(1))).as(q).isFinite());
        }
        assertThat(traffic.failures).as("traffic errors").isEmpty();
      } finally {
        traffic.finish();
        prometheus.destroy();
        prometheus.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Requests to both services until stopped, so that every rate has something to show. */
  private static final class Traffic extends Thread {
    final AtomicBoolean runs = new AtomicBoolean(true);
    final List<String> failures = new CopyOnWriteArrayList<>();
    private final int staticPort;
    private final int rpcPort;

    Traffic(int staticPort, int rpcPort) {
      this.staticPort = staticPort;
      this.rpcPort = rpcPort;
      setDaemon(true);
    }

    @Override
    public void run() {
      byte[] frame = RpcWire.frame("monitored".getBytes(StandardCharsets.UTF_8));
      byte[] get = "GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      while (runs.get()) {
        try (RpcWire wire = new RpcWire(rpcPort); Socket web = new Socket("127.0.0.1", staticPort)) {
          for (int i = 0; i < 10; i++) {
            wire.transact(frame);
          }
          web.getOutputStream().write(get);
          try (InputStream in = web.getInputStream()) {
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            if (!answer.startsWith("HTTP/1.1 200")) {
              failures.add(answer.lines().findFirst().orElse("no answer"));
            }
          }
          Thread.sleep(20);
        } catch (IOException e) {
          failures.add(e.toString());
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void finish() throws InterruptedException {
      runs.set(false);
      join(10_000);
    }
  }

  private static List<Map<String, Object>> rules() throws IOException {
    return MonitoringCheck.rules(Jars.ROOT);
  }

  private static void requireTool(String tool) {
    Ci.require(Jars.commandWorks(tool, "--version"), tool + " is not installed (Debian package prometheus; .ci/run "
        + "installs it)");
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s:\n%s", String.join(" ", command), out).isZero();
    return out;
  }

  /** Below the ephemeral range (FreePorts), which other modules' load beside this build fills with source ports. */
  private static int freePort() {
    return FreePorts.block(1);
  }
}
