package io.portshare.bench.staticfiles;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code wrk --latency} run printed: requests in the window, latency (µs), and errors by
 * kind: socket errors (connect, read, write, timeout) and non-2xx/3xx answers.
 */
public record WrkResult(long requests, double seconds, double latencyAvgUs, double latencyP99Us, long connectErrors,
    long readErrors, long writeErrors, long timeouts, long badStatus) {

  private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m|h),");
  private static final Pattern AVG = Pattern.compile("(?m)^\\s*Latency\\s+([\\d.]+)(us|ms|s|m|h)\\s");
  private static final Pattern P99 = Pattern.compile("(?m)^\\s*99(?:\\.0+)?%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$");
  private static final Pattern SOCKET = Pattern.compile(
      "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
  private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

  public double requestsPerSecond() {
    return seconds <= 0 ? 0 : requests / seconds;
  }

  public long socketErrors() {
    return connectErrors + readErrors + writeErrors + timeouts;
  }

  public long errors() {
    return socketErrors() + badStatus;
  }

  /** Reads wrk's report; fails with the output when the request count is missing (wrk did not run). */
  public static WrkResult parse(String out) {
    Matcher total = TOTAL.matcher(out);
    if (!total.find()) {
      throw new IllegalStateException("no \"N requests in T\" line in wrk's output:\n" + out.strip());
    }
    long requests = Long.parseLong(total.group(1));
    double seconds = micros(total.group(2), total.group(3)) / 1e6;
    double avg = 0;
    Matcher m = AVG.matcher(out);
    if (m.find()) {
      avg = micros(m.group(1), m.group(2));
    }
    double p99 = 0;
    m = P99.matcher(out);
    if (m.find()) {
      p99 = micros(m.group(1), m.group(2));
    }
    long[] socket = new long[4];
    m = SOCKET.matcher(out);
    if (m.find()) {
      for (int i = 0; i < 4; i++) {
        socket[i] = Long.parseLong(m.group(i + 1));
      }
    }
    long bad = 0;
    m = NON2XX.matcher(out);
    if (m.find()) {
      bad = Long.parseLong(m.group(1));
    }
    return new WrkResult(requests, seconds, avg, p99, socket[0], socket[1], socket[2], socket[3], bad);
  }

  /** wrk's time units (us, ms, s, m, h) in microseconds. */
  static double micros(String value, String unit) {
    double v = Double.parseDouble(value);
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "us" -> v;
      case "ms" -> v * 1e3;
      case "s" -> v * 1e6;
      case "m" -> v * 60e6;
      case "h" -> v * 3600e6;
      default -> throw new IllegalArgumentException("unknown wrk time unit " + unit);
    };
  }
}
