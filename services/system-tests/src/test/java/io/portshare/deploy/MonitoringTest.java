package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.Ci;
import io.portshare.kit.RpcWire;
import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The operator's side of the metrics, checked for real: the alert rules pass {@code promtool check
 * rules} and their unit tests (each alert firing and not), the PrometheusRule of the ServiceMonitor
 * component holds the same groups, and a real Prometheus scraping a real static-server and
 * rpc-server answers every query of the Grafana dashboard with data and evaluates every rule
 * without error, on series that exist.
 */
class MonitoringTest {

  private static final Path RULES = Jars.ROOT.resolve("deploy/prometheus/portshare-rules.yml");
  private static final Path RULE_TESTS = Jars.ROOT.resolve("deploy/prometheus/portshare-rules-test.yml");
  private static final Path DASHBOARD = Jars.ROOT.resolve("deploy/grafana/portshare.json");
  /** Names of the series an expression reads: every metric of ours, of the process and of the JVM. */
  private static final Pattern METRIC = Pattern.compile("\\b((?:portshare|process|jvm)_[a-z_]+)\\b");

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
  void theServiceMonitorComponentRendersThePrometheusRuleOfTheRulesFile(@TempDir Path dir) throws Exception {
    Jars.requireKubectl();
    // Kustomize takes other kustomizations by relative path only.
    Files.writeString(dir.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        + "kind: Kustomization\nresources:\n  - " + dir.relativize(Jars.ROOT.resolve("k8s/base")) + "\ncomponents:\n  - "
        + dir.relativize(Jars.ROOT.resolve("k8s/components/servicemonitor")) + "\n");
    String rendered = run(List.of("kubectl", "kustomize", dir.toString()));
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
        // Enough successful scrapes of both (up is 0 for one that timed out on a busy machine), under
        // traffic, for every rate() to have its two samples.
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() ->
            results(query(web, "sum_over_time(up{job=~\"static-server|rpc-server\"}[1m]) >= 8")).size() == 2);

        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, String> q : dashboardQueries().entrySet()) {
          String expr = q.getValue().replace("$__rate_interval", "1m").replace("$job", ".*").replace("$instance", ".*");
          Map<String, Object> answer = query(web, expr);
          if (!"success".equals(answer.get("status"))) {
            failures.add(q.getKey() + ": " + answer.get("error") + "\n    " + expr);
          } else if (results(answer).isEmpty()) {
            failures.add(q.getKey() + ": no data\n    " + expr);
          }
        }
        for (Map<String, Object> rule : rules()) {
          String expr = (String) rule.get("expr");
          Map<String, Object> answer = query(web, expr);
          if (!"success".equals(answer.get("status"))) {
            failures.add("alert " + rule.get("alert") + ": " + answer.get("error"));
          }
          // Quiet is what a healthy service's alert is; the series it reads must exist all the same.
          for (String metric : metrics(expr)) {
            if (results(query(web, "count(" + metric + ")")).isEmpty()) {
              failures.add("alert " + rule.get("alert") + " reads " + metric + ", which no service exports");
            }
          }
        }
        // Prometheus evaluated every rule (loaded from the same file) without an error.
        await().atMost(Duration.ofSeconds(30)).until(() -> ruleHealth(web).size() == rules().size()
            && ruleHealth(web).values().stream().allMatch(h -> !h.equals("unknown")));
        ruleHealth(web).forEach((alert, health) -> {
          if (!health.equals("ok")) {
            failures.add("alert " + alert + " evaluates with health " + health);
          }
        });
        assertThat(failures).as("dashboard queries and alert rules against the running services").isEmpty();
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

  /** Every query of the dashboard, by panel title and target. */
  private static Map<String, String> dashboardQueries() throws IOException {
    Map<String, Object> dashboard = new Yaml().load(Files.readString(DASHBOARD));
    Map<String, String> queries = new LinkedHashMap<>();
    for (Map<String, Object> panel : maps(dashboard.get("panels"))) {
      for (Map<String, Object> target : maps(panel.get("targets"))) {
        queries.put("panel \"" + panel.get("title") + "\" " + target.get("refId") + " (" + target.get("legendFormat")
            + ")", (String) target.get("expr"));
      }
    }
    assertThat(queries).as("dashboard queries").isNotEmpty();
    return queries;
  }

  private static List<Map<String, Object>> rules() throws IOException {
    Map<String, Object> file = new Yaml().load(Files.readString(RULES));
    List<Map<String, Object>> rules = new ArrayList<>();
    for (Map<String, Object> group : maps(file.get("groups"))) {
      rules.addAll(maps(group.get("rules")));
    }
    return rules;
  }

  private static Set<String> metrics(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(expr);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Each alerting rule's health as Prometheus evaluates it: ok, err or unknown. */
  private static Map<String, String> ruleHealth(int web) throws IOException, InterruptedException {
    Map<String, Object> answer = get(web, "/api/v1/rules");
    Map<String, String> health = new LinkedHashMap<>();
    for (Map<String, Object> group : maps(map(answer.get("data")).get("groups"))) {
      for (Map<String, Object> rule : maps(group.get("rules"))) {
        health.put((String) rule.get("name"), rule.get("health") + (rule.get("lastError") == null
            || "".equals(rule.get("lastError")) ? "" : ": " + rule.get("lastError")));
      }
    }
    return health;
  }

  private static Map<String, Object> query(int web, String expr) throws IOException, InterruptedException {
    return get(web, "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
  }

  private static Map<String, Object> get(int web, String path) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + web + path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
    return new Yaml().load(r.body());
  }

  private static List<Object> results(Map<String, Object> answer) {
    Object data = answer.get("data");
    return data == null ? List.of() : list(map(data).get("result"));
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> list(Object o) {
    return o == null ? List.of() : (List<T>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> maps(Object o) {
    return o == null ? List.of() : (List<Map<String, Object>>) o;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
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

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
