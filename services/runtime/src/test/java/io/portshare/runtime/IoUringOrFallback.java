package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Fallbacks;
import io.portshare.kit.LogCapture;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.transport.Transport;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code --transport io_uring} must give on this machine: io_uring where the kernel allows it;
 * where it refuses (a container runtime's seccomp profile, {@code kernel.io_uring_disabled}), epoll,
 * one WARN line saying so, and epoll in {@code portshare_info}. The io_uring tests check whichever
 * applies, so a machine that refuses io_uring tests the fallback instead of skipping. Other modules'
 * tests reach it through the runtime's test jar.
 */
public final class IoUringOrFallback {

  private IoUringOrFallback() {}

  /** Whether this JVM may use io_uring (a child process inherits the same seccomp filter and sysctl). */
  public static boolean allowed() {
    return Transport.IO_URING.available();
  }

  /** The transport {@code --transport io_uring} runs on here. */
  public static String transport() {
    return allowed() ? "io_uring" : "epoll";
  }

  /** Starts {@code service} with {@code flags} and {@code --transport io_uring}, and checks what it runs on. */
  public static ServiceRuntime start(Runtimes runtimes, ServiceDescriptor service, String... flags) {
    String[] all = Arrays.copyOf(flags, flags.length + 2);
    all[flags.length] = "--transport";
    all[flags.length + 1] = "io_uring";
    ServiceRuntime runtime;
    List<String> warnings;
    try (LogCapture log = LogCapture.attach()) {
      runtime = runtimes.start(service, all);
      warnings = log.warningsAndErrors();
    }
    check(runtime, warnings);
    return runtime;
  }

  /** A runtime asked for io_uring, and the WARN and ERROR lines logged while it started. */
  public static void check(ServiceRuntime runtime, List<String> startWarnings) {
    assertThat(runtime.transport()).as("the transport --transport io_uring gives").isEqualTo(transport());
    assertThat(runtime.registry().scrape()).as("portshare_info")
        .containsPattern("portshare_info\\{[^}]*transport=\"" + transport() + "\"");
    checkWarnings(startWarnings);
  }

  /**
   * Lines a service logged at start (a process's output, or WARN/ERROR events captured in this JVM):
   * where io_uring is refused exactly one warning speaks of it, saying why and that epoll runs instead;
   * where it is allowed none does.
   */
  public static void checkWarnings(List<String> lines) {
    List<String> aboutIoUring = lines.stream()
        .filter(l -> (l.contains("WARN") || l.contains("ERROR")) && l.contains("io_uring")).toList();
    if (allowed()) {
      assertThat(aboutIoUring).as("warnings about io_uring where it is allowed").isEmpty();
    } else {
      assertThat(aboutIoUring).as("warnings about io_uring where it is refused (%s)",
          Transport.IO_URING.unavailabilityCause()).singleElement()
          .satisfies(w -> assertThat(w).contains("WARN", "transport io_uring is refused here", "using epoll"));
      // Passing on epoll is right here, and also means io_uring went untested: CI's skip table lists it.
      Fallbacks.record("ran on epoll: io_uring refused (" + Transport.IO_URING.unavailabilityCause() + ")");
    }
  }
}
