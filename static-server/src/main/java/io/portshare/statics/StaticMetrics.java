package io.portshare.statics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.LatencyHistogram;
import java.util.function.ToDoubleFunction;

/**
 * The counters of one event loop, as plain fields: the hot path adds to a long and the registry reads
 * them when scraped. A Micrometer counter per request would cost a LongAdder update per meter.
 */
final class StaticMetrics {

  long informational;
  long success;
  long redirection;
  long clientError;
  long serverError;
  long bodyBytes;
  long sendfileBytes;
  long copiedBytes;
  long headerTimeouts;
  long idleTimeouts;
  long badVersions;
  /**
   * Each answer's time from the end of its request head to its last byte written; the refusals of
   * {@link HeadGuard}, which answer a head not fit to serve and close, are counted above, not timed.
   */
  final LatencyHistogram answerSeconds;

  /** Counters in no registry: for warm-up traffic, which the runtime counts apart. */
  StaticMetrics() {
    answerSeconds = new LatencyHistogram();
  }

  StaticMetrics(MeterRegistry registry, String loop) {
    answerSeconds = LatencyHistogram.register(registry, "portshare_static_answer_seconds",
        "Time from the end of a request head to the last byte of its answer written to the socket",
        "service", "static", "loop", loop);
    requests(registry, loop, "1xx", m -> m.informational);
    requests(registry, loop, "2xx", m -> m.success);
    requests(registry, loop, "3xx", m -> m.redirection);
    requests(registry, loop, "4xx", m -> m.clientError);
    requests(registry, loop, "5xx", m -> m.serverError);
    FunctionCounter.builder("portshare.static.bytes.sent", this, m -> m.bodyBytes)
        .description("File body bytes sent (the text of an error answer is not counted)").baseUnit("bytes")
        .tag("service", "static").tag("loop", loop).register(registry);
    FunctionCounter.builder("portshare.static.body.bytes", this, m -> m.sendfileBytes)
        .description("Body bytes by how they went out: sendfile (zero-copy) or copy (memory or read+write)")
        .baseUnit("bytes").tag("service", "static").tag("loop", loop).tag("path", "sendfile").register(registry);
    FunctionCounter.builder("portshare.static.body.bytes", this, m -> m.copiedBytes)
        .description("Body bytes by how they went out: sendfile (zero-copy) or copy (memory or read+write)")
        .baseUnit("bytes").tag("service", "static").tag("loop", loop).tag("path", "copy").register(registry);
    FunctionCounter.builder("portshare.static.header.timeouts", this, m -> m.headerTimeouts)
        .description("Connections closed because a request head did not arrive in time")
        .tag("service", "static").tag("loop", loop).register(registry);
    FunctionCounter.builder("portshare.static.idle.timeouts", this, m -> m.idleTimeouts)
        .description("Connections closed by the idle timeout: quiet between requests, or an answer that stopped moving")
        .tag("service", "static").tag("loop", loop).register(registry);
    FunctionCounter.builder("portshare.static.bad.versions", this, m -> m.badVersions)
        .description("Requests of a version other than HTTP/1.0 and 1.1, answered 505 or 400 and closed")
        .tag("service", "static").tag("loop", loop).register(registry);
  }

  private void requests(MeterRegistry registry, String loop, String status, ToDoubleFunction<StaticMetrics> f) {
    FunctionCounter.builder("portshare.static.requests", this, f)
        .description("Requests answered, by status class")
        .tag("service", "static").tag("loop", loop).tag("status", status).register(registry);
  }

  void status(int code) {
    if (code < 200) {
      informational++;
    } else if (code < 300) {
      success++;
    } else if (code < 400) {
      redirection++;
    } else if (code < 500) {
      clientError++;
    } else {
      serverError++;
    }
  }
}
