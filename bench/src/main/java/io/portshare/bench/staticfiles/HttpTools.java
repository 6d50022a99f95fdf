package io.portshare.bench.staticfiles;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of a command that runs nginx as the HTTP peer and wrk as the HTTP client: which
 * binaries, and nginx's configuration template. A binary not given is looked for when it is
 * first needed, so a run that needs neither does not ask for them.
 */
public final class HttpTools {

  @Option(names = "--nginx", description = "the nginx binary (default: nginx on PATH, or /usr/sbin/nginx)")
  String nginx;

  @Option(names = "--nginx-template", defaultValue = "bench/peers/nginx-static.conf.template",
      description = "nginx's configuration template (default: ${DEFAULT-VALUE})")
  Path nginxTemplate;

  @Option(names = "--wrk", description = "the wrk binary (default: wrk on PATH)")
  String wrk;

  /** The nginx binary given, else the one found; else the one line that says how to get it. */
  public String nginx() {
    return nginx != null ? nginx : Tools.find("nginx", "/usr/sbin/nginx").orElseThrow(() ->
        new IllegalArgumentException("nginx not found on PATH or in /usr/sbin; install nginx-light "
            + "(apt-get install nginx-light) or give --nginx"));
  }

  /** The template, when it is a file; else the one line naming the option and its value. */
  public Path nginxTemplate() {
    if (!Files.isRegularFile(nginxTemplate)) {
      throw new IllegalArgumentException("invalid value for --nginx-template: no file at " + nginxTemplate);
    }
    return nginxTemplate;
  }

  /** The wrk binary given, else the one found on PATH; else the one line that says how to get it. */
  public String wrk() {
    return wrk != null ? wrk : Tools.find("wrk").orElseThrow(() ->
        new IllegalArgumentException("wrk not found on PATH; install it (apt-get install wrk) or give --wrk"));
  }
}
