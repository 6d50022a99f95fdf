package io.portshare.monitoring;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintStream;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The Grafana dashboard and the alert rules asked of a real Prometheus that scrapes running
 * services: every panel's query must parse and return data, every rule's expression must parse,
 * read series some service exports, and evaluate (loaded from the rules file) with health ok. A
 * quiet alert is what a healthy service gives; a query with no data is a panel that would stay empty.
 * MonitoringTest runs it against services it starts, {@code deploy/k8s.sh local-test} against the
 * pods (through {@link #main}).
 */
public final class MonitoringCheck {

  public static final String DASHBOARD = "deploy/grafana/portshare.json";
  public static final String RULES = "deploy/prometheus/portshare-rules.yml";
  /** Names of the series an expression reads: every metric of ours, of the process and of the JVM. */
  private static final Pattern METRIC = Pattern.compile("\\b((?:portshare|process|jvm)_[a-z_]+)\\b");

  private final URI prometheus;
  private final Path root;
  private final HttpClient http = HttpClient.newHttpClient();

  /** Prometheus at {@code prometheus} (e.g. http://127.0.0.1:9090), the dashboard and rules of the repository at {@code root}. */
  public MonitoringCheck(URI prometheus, Path root) {
    this.prometheus = prometheus;
    this.root = root;
  }

  /**
   * Usage: {@code MonitoringCheck PROMETHEUS_URL REPOSITORY JOB...}: waits for the jobs' scrapes,
   * prints one line per query and rule, exits 1 if any failed.
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: MonitoringCheck PROMETHEUS_URL REPOSITORY JOB...");
      System.exit(2);
    }
    MonitoringCheck check = new MonitoringCheck(URI.create(args[0]), Path.of(args[1]));
    List<String> jobs = List.of(args).subList(2, args.length);
    if (!check.awaitScrapes(jobs, Duration.ofSeconds(180))) {
      System.out.println("FAIL  Prometheus has not scraped " + String.join(", ", jobs) + " " + SCRAPES
          + " times in a minute: " + check.get("/api/v1/targets").encode());
      System.exit(1);
    }
    List<String> failures = check.failures(System.out);
    System.exit(failures.isEmpty() ? 0 : 1);
  }

  /** Successful scrapes of each job in the last minute before the queries are asked (a rate needs two). */
  static final int SCRAPES = 8;

  /** True once every job has had {@link #SCRAPES} successful scrapes within the last minute; false after {@code timeout}. */
  public boolean awaitScrapes(List<String> jobs, Duration timeout) throws IOException, InterruptedException {
    String expr = "sum by (job) (sum_over_time(up{job=~\"" + String.join("|", jobs) + "\"}[1m])) >= " + SCRAPES;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (results(query(expr)).size() == jobs.size()) {
        return true;
      }
      Thread.sleep(1000);
    }
    return false;
  }

  /** Asks every panel query and every rule; prints a line for each; returns what failed. */
  public List<String> failures(PrintStream log) throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, String> q : dashboardQueries(root).entrySet()) {
      String expr = q.getValue().replace("$__rate_interval", "1m").replace("$job", ".*").replace("$instance", ".*");
      JsonObject answer = query(expr);
      if (!"success".equals(answer.getString("status"))) {
        failures.add(q.getKey() + ": " + answer.getString("error") + "\n    " + expr);
      } else if (results(answer).isEmpty()) {
        failures.add(q.getKey() + ": no data\n    " + expr);
      } else {
        log.println("ok    " + q.getKey() + ": " + results(answer).size() + " series");
        continue;
      }
      log.println("FAIL  " + failures.get(failures.size() - 1));
    }
    List<Map<String, Object>> rules = rules(root);
    for (Map<String, Object> rule : rules) {
      String expr = (String) rule.get("expr");
      List<String> wrong = new ArrayList<>();
      JsonObject answer = query(expr);
      if (!"success".equals(answer.getString("status"))) {
        wrong.add("alert " + rule.get("alert") + ": " + answer.getString("error"));
      }
      // Quiet is what a healthy service's alert is; the series it reads must exist all the same.
      for (String metric : metrics(expr)) {
        if (results(query("count(" + metric + ")")).isEmpty()) {
          wrong.add("alert " + rule.get("alert") + " reads " + metric + ", which no service exports");
        }
      }
      wrong.forEach(w -> log.println("FAIL  " + w));
      if (wrong.isEmpty()) {
        log.println("ok    alert " + rule.get("alert") + " parses and reads " + metrics(expr));
      }
      failures.addAll(wrong);
    }
    // Prometheus evaluates every rule, loaded from the same file, without an error.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Map<String, String> health = ruleHealth();
    while ((health.size() < rules.size() || health.containsValue("unknown")) && System.nanoTime() < deadline) {
      Thread.sleep(500);
      health = ruleHealth();
    }
    for (Map<String, Object> rule : rules) {
      String h = health.get((String) rule.get("alert"));
      if ("ok".equals(h)) {
        log.println("ok    alert " + rule.get("alert") + " evaluates with health ok");
      } else {
        failures.add("alert " + rule.get("alert") + " evaluates with health " + h);
        log.println("FAIL  " + failures.get(failures.size() - 1));
      }
    }
    return failures;
  }

  /** Every query of the dashboard, by panel title and target. */
  public static Map<String, String> dashboardQueries(Path root) throws IOException {
    JsonObject dashboard = new JsonObject(Files.readString(root.resolve(DASHBOARD)));
    Map<String, String> queries = new LinkedHashMap<>();
    for (Object p : dashboard.getJsonArray("panels", new JsonArray())) {
      JsonObject panel = (JsonObject) p;
      for (Object t : panel.getJsonArray("targets", new JsonArray())) {
        JsonObject target = (JsonObject) t;
        queries.put("panel \"" + panel.getString("title") + "\" " + target.getString("refId") + " ("
            + target.getString("legendFormat") + ")", target.getString("expr"));
      }
    }
    if (queries.isEmpty()) {
      throw new IllegalStateException(DASHBOARD + " has no queries");
    }
    return queries;
  }

  /** Every rule of the rules file, all groups. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> rules(Path root) throws IOException {
    Map<String, Object> file = new Yaml().load(Files.readString(root.resolve(RULES)));
    List<Map<String, Object>> rules = new ArrayList<>();
    for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
      rules.addAll((List<Map<String, Object>>) group.get("rules"));
    }
    return rules;
  }

  static Set<String> metrics(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(expr);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Each alerting rule's health as Prometheus evaluates it: ok, err (with its error) or unknown. */
  private Map<String, String> ruleHealth() throws IOException, InterruptedException {
    Map<String, String> health = new LinkedHashMap<>();
    JsonObject data = get("/api/v1/rules").getJsonObject("data", new JsonObject());
    for (Object g : data.getJsonArray("groups", new JsonArray())) {
      for (Object r : ((JsonObject) g).getJsonArray("rules", new JsonArray())) {
        JsonObject rule = (JsonObject) r;
        String error = rule.getString("lastError", "");
        health.put(rule.getString("name"), rule.getString("health") + (error.isEmpty() ? "" : ": " + error));
      }
    }
    return health;
  }

  public JsonObject query(String expr) throws IOException, InterruptedException {
    return get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
  }

  private JsonObject get(String path) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(prometheus.resolve(path))
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body());
  }

  public static JsonArray results(JsonObject answer) {
    JsonObject data = answer.getJsonObject("data");
    return data == null ? new JsonArray() : data.getJsonArray("result", new JsonArray());
  }
}
