package io.portshare.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a run under a directory: {@code table.txt}, {@code results.json}, {@code results.csv}, {@code report.html}. */
public final class ResultsWriter {

  public static final List<String> FILES = List.of("table.txt", "results.json", "results.csv", "report.html");

  private ResultsWriter() {}

  public static void writeAll(Results r, Path dir) throws IOException {
    writeAll(r, ResultsText.of(r), dir);
  }

  /** With {@code text} as table.txt: the tables as {@link ResultsText} writes them and what a command adds to them. */
  public static void writeAll(Results r, String text, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("table.txt"), text, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.json"), ResultsJson.of(r).encodePrettily() + "\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.csv"), ResultsCsv.of(r), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("report.html"), ResultsHtml.of(r), StandardCharsets.UTF_8);
  }
}
