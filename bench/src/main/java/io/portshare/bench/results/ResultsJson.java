package io.portshare.bench.results;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code results.json}: every round's raw figures plus each cell's median, min, max and spread,
 * so the file alone carries the run. {@link #read} gives the same {@link Results} back.
 */
public final class ResultsJson {

  private ResultsJson() {}

  public static JsonObject of(Results r) {
    JsonObject meta = new JsonObject();
    r.meta().forEach(meta::put);
    JsonArray tables = new JsonArray();
    for (Table t : r.tables()) {
      tables.add(table(t));
    }
    return new JsonObject().put("title", r.title()).put("meta", meta).put("tables", tables);
  }

  private static JsonObject table(Table t) {
    JsonArray metrics = new JsonArray();
    t.metrics().forEach(m -> metrics.add(new JsonObject().put("key", m.key()).put("label", m.label())
        .put("decimals", m.decimals())));
    JsonArray rows = new JsonArray();
    for (Row row : t.rows()) {
      JsonArray cells = new JsonArray();
      for (Cell c : row.cells()) {
        JsonObject summary = new JsonObject();
        for (Metric m : t.metrics()) {
          if (c.values(m.key()).length > 0) {
            summary.put(m.key(), new JsonObject().put("median", c.median(m.key())).put("min", c.min(m.key()))
                .put("max", c.max(m.key())).put("spreadPercent", c.spreadPercent(m.key())));
          }
        }
        JsonArray rounds = new JsonArray();
        for (Round round : c.rounds()) {
          JsonObject values = new JsonObject();
          round.values().forEach(values::put);
          rounds.add(new JsonObject().put("values", values).put("errors", round.errors())
              .put("clientBound", round.clientBound()));
        }
        cells.add(new JsonObject().put("column", c.column()).put("errors", c.errors())
            .put("clientBound", c.clientBound()).put("summary", summary).put("rounds", rounds));
      }
      JsonObject jr = new JsonObject().put("label", row.label()).put("cells", cells);
      if (row.note() != null) {
        jr.put("note", row.note());
      }
      if (t.ratio() != null) {
        JsonObject ratios = new JsonObject();
        for (Metric m : t.metrics()) {
          double v = t.ratio().of(row, m.key());
          if (!Double.isNaN(v)) {
            ratios.put(m.key(), v);
          }
        }
        jr.put("ratios", ratios);
      }
      rows.add(jr);
    }
    JsonObject out = new JsonObject().put("key", t.key()).put("title", t.title()).put("metrics", metrics)
        .put("columns", new JsonArray(new ArrayList<>(t.columns()))).put("rows", rows);
    if (t.ratio() != null) {
      out.put("ratio", new JsonObject().put("numerator", t.ratio().numerator())
          .put("denominator", t.ratio().denominator()));
    }
    return out;
  }

  /** Reads what {@link #of} wrote (summaries are recomputed from the rounds). */
  public static Results read(JsonObject json) {
    Map<String, String> meta = new LinkedHashMap<>();
    json.getJsonObject("meta", new JsonObject()).forEach(e -> meta.put(e.getKey(), String.valueOf(e.getValue())));
    List<Table> tables = new ArrayList<>();
    for (Object o : json.getJsonArray("tables")) {
      JsonObject t = (JsonObject) o;
      List<Metric> metrics = new ArrayList<>();
      for (Object m : t.getJsonArray("metrics")) {
        JsonObject jm = (JsonObject) m;
        metrics.add(new Metric(jm.getString("key"), jm.getString("label"), jm.getInteger("decimals")));
      }
      List<String> columns = new ArrayList<>();
      t.getJsonArray("columns").forEach(c -> columns.add((String) c));
      List<Row> rows = new ArrayList<>();
      for (Object ro : t.getJsonArray("rows")) {
        JsonObject jr = (JsonObject) ro;
        List<Cell> cells = new ArrayList<>();
        for (Object co : jr.getJsonArray("cells")) {
          JsonObject jc = (JsonObject) co;
          List<Round> rounds = new ArrayList<>();
          for (Object rd : jc.getJsonArray("rounds")) {
            JsonObject jd = (JsonObject) rd;
            Map<String, Double> values = new LinkedHashMap<>();
            jd.getJsonObject("values").forEach(e -> values.put(e.getKey(), ((Number) e.getValue()).doubleValue()));
            rounds.add(new Round(values, jd.getLong("errors", 0L), jd.getBoolean("clientBound", false)));
          }
          cells.add(new Cell(jc.getString("column"), rounds));
        }
        rows.add(new Row(jr.getString("label"), cells, jr.getString("note")));
      }
      JsonObject jratio = t.getJsonObject("ratio");
      Ratio ratio = jratio == null ? null : new Ratio(jratio.getString("numerator"), jratio.getString("denominator"));
      tables.add(new Table(t.getString("key"), t.getString("title"), metrics, columns, rows, ratio));
    }
    return new Results(json.getString("title"), meta, tables);
  }
}
