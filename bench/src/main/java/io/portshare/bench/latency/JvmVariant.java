package io.portshare.bench.latency;

import java.util.Arrays;
import java.util.List;

/**
 * A way to run the JVM servers, for an A/B of collectors and heaps in one run: {@code NAME=FLAGS},
 * e.g. {@code g1=-XX:+UseG1GC -Xmx256m}. Each JVM server runs once per variant, as the row
 * {@code SERVER[NAME]}, its flags after {@code --server-jvm-options} (the JVM takes the last of a flag
 * given twice).
 */
record JvmVariant(String name, List<String> flags) {

  static JvmVariant parse(String text) {
    int eq = text.indexOf('=');
    String name = eq < 0 ? "" : text.substring(0, eq).trim();
    if (!name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("invalid value for --jvm: " + text
          + "; expected NAME=FLAGS, NAME of letters, digits, '.', '_' or '-' (e.g. parallel=-XX:+UseParallelGC)");
    }
    String flags = text.substring(eq + 1).trim();
    List<String> words = flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    for (String w : words) {
      if (!w.startsWith("-") || w.startsWith("-Xlog")) {
        throw new IllegalArgumentException("invalid value for --jvm: " + text + "; expected JVM flags (each starting "
            + "with '-'; -Xlog is the bench's own, for the GC log)");
      }
    }
    return new JvmVariant(name, List.copyOf(words));
  }

  /** The row of {@code server} run this way. */
  String row(String server) {
    return server + "[" + name + "]";
  }
}
