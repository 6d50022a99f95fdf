#!/usr/bin/env bash
# A new service in one command: deploy/new-service.sh NAME [--port N]
#   NAME       lower-case letters and digits, starting with a letter (e.g. greeter); the Java package
#              is io.portshare.NAME, so a Java keyword is refused
#   --port N   the traffic port (default 8000); the admin port is N+1
# Writes, from the top of the repository:
#   NAME-server/                        a module on the runtime, vertx-web and portshare-web (pom, NameService
#                                       descriptor, NameRoutes: a vertx-web Router with GET /hello and
#                                       the webroot of its resources, NameVerticle serving it on the
#                                       runtime, NameServiceTest), added to the parent pom's modules
#   k8s/base/NAME-server/               its Kubernetes base on the shared component k8s/components/service,
#                                       listed in k8s/base (so the dev and prod overlays run it) and in
#                                       the prod overlay's images
#   deploy/systemd/portshare-NAME@.service, .socket
#                                       its per-CPU units on the shared drop-ins there
# Then: ./mvnw -B -pl NAME-server -am verify, and java -jar NAME-server/target/portshare-NAME-server.jar.
# Nothing is overwritten: an existing module, base or unit of that name stops it (exit 2).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/deploy/lib.sh"
me="new-service"

usage() {
  echo "usage: deploy/new-service.sh NAME [--port N]  (NAME: lower-case letters and digits, e.g. greeter)" >&2
  exit 2
}
fail() {
  echo "$me: $*" >&2
  exit 2
}

name=""
port=8000
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || fail "--port needs a value"; port="$2"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    -h|--help) portshare_help --help ;;
    -*) fail "unknown option $1" ;;
    *) [ -z "$name" ] || fail "one NAME only, got \"$name\" and \"$1\""; name="$1"; shift ;;
  esac
done
[ -n "$name" ] || usage
[[ "$name" =~ ^[a-z][a-z0-9]*$ ]] \
  || fail "invalid NAME \"$name\": lower-case letters and digits, starting with a letter (it names a Java package)"
case " abstract assert boolean break byte case catch char class const continue default do double else enum
  extends final finally float for goto if implements import instanceof int interface long native new
  package private protected public return short static strictfp super switch synchronized this throw
  throws transient try void volatile while true false null var yield record sealed permits " in
  *" $name "*) fail "invalid NAME \"$name\": a Java keyword cannot name the package io.portshare.$name" ;;
esac
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65534 ] \
  || fail "invalid --port \"$port\": a number from 1 to 65534 (the admin port is the next one)"
admin=$((port + 1))

module="$name-server"
class="$(printf '%s' "${name:0:1}" | tr a-z A-Z)${name:1}"
pkg="io.portshare.$name"
for p in "$module" "k8s/base/$module" "deploy/systemd/portshare-$name@.service" "deploy/systemd/portshare-$name@.socket"; do
  [ ! -e "$root/$p" ] || fail "$p exists already; nothing written"
done
# Two services on one port would fight over it on one host: say so before writing anything.
for values in "$root"/k8s/base/*/values.yaml; do
  [ -f "$values" ] || continue
  for taken in $(sed -n 's/^  \(port\|adminPort\): *\([0-9]*\)$/\2/p' "$values"); do
    if [ "$taken" = "$port" ] || [ "$taken" = "$admin" ]; then
      fail "port $taken is taken by $(basename "$(dirname "$values")") (k8s/base); pick another with --port"
    fi
  done
done

src="$root/$module/src/main/java/io/portshare/$name"
test="$root/$module/src/test/java/io/portshare/$name"
mkdir -p "$src" "$test" "$root/$module/src/main/resources/META-INF/services" "$root/$module/src/main/resources/webroot" \
  "$root/k8s/base/$module"

cat > "$root/$module/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>io.portshare</groupId>
    <artifactId>portshare-parent</artifactId>
    <version>0.1.0</version>
  </parent>
  <artifactId>portshare-$module</artifactId>
  <name>portshare $module</name>

  <properties>
    <fatjar.name>portshare-$module</fatjar.name>
    <portshare.service>$name</portshare.service>
  </properties>

  <dependencies>
    <dependency><groupId>io.portshare</groupId><artifactId>portshare-runtime</artifactId></dependency>
    <dependency><groupId>ch.qos.logback</groupId><artifactId>logback-classic</artifactId></dependency>
    <!-- ${class}Routes: the Router and its routes (the version is Vert.x's BOM's), and its static files (StaticFiles) -->
    <dependency><groupId>io.vertx</groupId><artifactId>vertx-web</artifactId></dependency>
    <dependency><groupId>io.portshare</groupId><artifactId>portshare-web</artifactId></dependency>

    <dependency><groupId>io.vertx</groupId><artifactId>vertx-junit5</artifactId><scope>test</scope></dependency>
    <dependency><groupId>io.vertx</groupId><artifactId>vertx-web-client</artifactId><scope>test</scope></dependency>
    <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId><scope>test</scope></dependency>
    <dependency><groupId>io.portshare</groupId><artifactId>portshare-runtime</artifactId><type>test-jar</type><scope>test</scope></dependency>
  </dependencies>

  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-shade-plugin</artifactId>
      </plugin>
    </plugins>
  </build>
</project>
EOF

cat > "$src/${class}Service.java" <<EOF
package $pkg;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import java.util.List;

/** The $name service: answers GET /hello with a greeting and serves its webroot's files. */
public final class ${class}Service implements ServiceDescriptor {

  static final String GREETING = "greeting";

  @Override
  public String name() {
    return "$name";
  }

  @Override
  public String description() {
    return "$name: answers GET /hello with a greeting and serves its webroot's files";
  }

  @Override
  public int defaultPort() {
    return $port;
  }

  @Override
  public int defaultAdminPort() {
    return $admin;
  }

  @Override
  public List<Option> options() {
    return List.of(Option.string(GREETING, "hello from $name", "what GET /hello answers"));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new ${class}Verticle();
  }
}
EOF

cat > "$src/${class}Routes.java" <<EOF
package $pkg;

import io.portshare.web.StaticFiles;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;

/**
 * The $name service's routes: vertx-web and portshare-web, nothing of the runtime, so that they run the same on
 * stock Vert.x: {@code vertx.createHttpServer().requestHandler(${class}Routes.router(vertx, "hi", ${class}Routes.files())).listen(8080)}.
 * A new route goes here, before the static route: {@code router.get("/path").handler(ctx -> ...)}.
 */
public final class ${class}Routes {

  /**
   * The static files' directory on the class path (src/main/resources/webroot), so that they ship in
   * the jar. StaticFiles serves it in place from target/classes; from the jar it copies it once, at
   * the first request, to a temporary directory, so that large files still go by sendfile.
   */
  static final String WEBROOT = "webroot";

  private ${class}Routes() {}

  /**
   * The webroot's handler. It keeps the large files it sends by sendfile open between answers: whoever
   * makes it closes it when its routes are done ({@code files.close()} in the verticle's stop()).
   */
  public static StaticFiles files() {
    return StaticFiles.classpath(WEBROOT).build();
  }

  /**
   * GET /hello answers {@code greeting}; any other path is a file of the webroot, by {@code files}
   * (/ is its index.html, with ETag, 304, Range and .gz siblings), or 404: StaticFiles passes what it
   * does not serve to the next route, here the Router's own 404.
   */
  public static Router router(Vertx vertx, String greeting, StaticFiles files) {
    Router router = Router.router(vertx);
    router.get("/hello").handler(ctx -> ctx.response()
        .putHeader("content-type", "text/plain; charset=utf-8")
        .end(greeting));
    router.route().handler(files);
    return router;
  }
}
EOF

cat > "$src/${class}Verticle.java" <<EOF
package $pkg;

import io.portshare.runtime.ServiceVerticle;
import io.portshare.web.StaticFiles;
import io.vertx.core.Future;

/**
 * One instance of the $name service: ${class}Routes on an HTTP server on the shared port, on this
 * event loop. The runtime's part is the server's options and the listen, through which the scaling
 * mode, the drain and the connection meters work.
 */
public final class ${class}Verticle extends ServiceVerticle {

  private StaticFiles files;

  @Override
  public Future<?> start() {
    String greeting = service.settings().getString(${class}Service.GREETING) + "\n";
    files = ${class}Routes.files();
    return service.listen(vertx.createHttpServer(service.httpServerOptions())
        .requestHandler(${class}Routes.router(vertx, greeting, files)));
  }

  /** Closes the files StaticFiles keeps open (an answer still being sent closes its own when done). */
  @Override
  public Future<?> stop() throws Exception {
    if (files != null) {
      files.close();
    }
    return super.stop();
  }
}
EOF

cat > "$root/$module/src/main/resources/webroot/index.html" <<EOF
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>$name</title></head>
<body>
<h1>$name</h1>
<p>This page is the webroot of $module's resources; <a href="/hello">/hello</a> answers a greeting.</p>
</body>
</html>
EOF

echo "$pkg.${class}Service" > "$root/$module/src/main/resources/META-INF/services/io.portshare.runtime.ServiceDescriptor"

cat > "$test/${class}ServiceTest.java" <<EOF
package $pkg;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(VertxExtension.class)
class ${class}ServiceTest {

  /** Stops every service a test starts, after the test. */
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void helloAnswersWithTheDefaultGreeting(Vertx vertx, VertxTestContext test) {
    ServiceRuntime runtime = runtimes.start(new ${class}Service(), "--port", "0", "--admin-port", "0",
        "--instances", "2");
    get(vertx, test, runtime, "/hello", res -> {
      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.getHeader("content-type")).startsWith("text/plain");
      assertThat(res.bodyAsString()).isEqualTo("hello from $name\n");
    });
  }

  @Test
  void theGreetingIsAnOption(Vertx vertx, VertxTestContext test) {
    ServiceRuntime runtime = runtimes.start(new ${class}Service(), "--port", "0", "--admin-port", "0",
        "--greeting", "hi");
    get(vertx, test, runtime, "/hello", res -> assertThat(res.bodyAsString()).isEqualTo("hi\n"));
  }

  @Test
  void theRootIsTheWebrootsIndexPage(Vertx vertx, VertxTestContext test) {
    ServiceRuntime runtime = runtimes.start(new ${class}Service(), "--port", "0", "--admin-port", "0");
    get(vertx, test, runtime, "/", res -> {
      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.getHeader("content-type")).startsWith("text/html");
      assertThat(res.bodyAsString()).contains("<title>$name</title>");
    });
  }

  @Test
  void aStaticFileIsServedByItsName(Vertx vertx, VertxTestContext test) {
    ServiceRuntime runtime = runtimes.start(new ${class}Service(), "--port", "0", "--admin-port", "0");
    get(vertx, test, runtime, "/index.html", res -> {
      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.bodyAsString()).contains("<title>$name</title>");
    });
  }

  @Test
  void anUnknownPathIs404(Vertx vertx, VertxTestContext test) {
    ServiceRuntime runtime = runtimes.start(new ${class}Service(), "--port", "0", "--admin-port", "0");
    get(vertx, test, runtime, "/no-such-file.txt", res -> assertThat(res.statusCode()).isEqualTo(404));
  }

  /** GETs {@code path} of the service, then checks the answer with {@code check} and completes the test. */
  private static void get(Vertx vertx, VertxTestContext test, ServiceRuntime runtime, String path,
      Consumer<HttpResponse<Buffer>> check) {
    WebClient.create(vertx).get(runtime.port(), "127.0.0.1", path).send()
        .onComplete(test.succeeding(res -> test.verify(() -> {
          check.accept(res);
          test.completeNow();
        })));
  }
}
EOF

cat > "$root/k8s/base/$module/values.yaml" <<EOF
# What makes $module's Deployment, Service, autoscaler, disruption budget and network policy its
# own; the rest is the shared component k8s/components/service. Read at build time, not applied.
apiVersion: portshare.io/v1
kind: ServiceValues
metadata:
  name: $module
  annotations:
    config.kubernetes.io/local-config: "true"
spec:
  component: $name
  image: portshare-$module
  # the config file below, mounted at /etc/portshare and passed as --config
  config: $name.yaml
  portName: http
  port: $port
  adminPort: $admin
EOF

cat > "$root/k8s/base/$module/$name.yaml" <<EOF
# $module settings (keys are the launcher's flags; env PORTSHARE_* and args override them).
port: $port
admin-port: $admin
mode: reuseport
# terminationGracePeriodSeconds (30) covers the preStop sleep (5), this and the runtime's
# waits after the drain (8 s).
drain-timeout: 15s
log-format: json
EOF

cat > "$root/k8s/base/$module/kustomization.yaml" <<EOF
# $module on its own: \`kubectl apply -k k8s/base/$module\` deploys just this service.
# Its image is :untagged here: a kustomization listing this one sets the build's tag (images: newTag),
# as deploy/k8s.sh does for the overlays (k8s/README.md, "Image tags").
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

resources:
  - values.yaml

components:
  - ../../components/service

# The generated name carries a hash of the content, so a config change rolls the pods.
configMapGenerator:
  - name: $module-config
    files:
      - $name.yaml
EOF

cat > "$root/deploy/systemd/portshare-$name@.service" <<EOF
# $module, one process per CPU; what every service's unit shares (and how to install) is in
# portshare-.service.d/portshare.conf. The port is the socket unit's: change both together.
[Unit]
Description=portshare $module on CPU %i

[Service]
Environment=PORTSHARE_PORT=$port

[Install]
WantedBy=multi-user.target
EOF

cat > "$root/deploy/systemd/portshare-$name@.socket" <<EOF
# The listening socket of portshare-$name@%i.service on port $port; what every service's socket unit
# shares is in portshare-.socket.d/portshare.conf. PORTSHARE_PORT in the service unit must match.
[Unit]
Description=portshare $module listening socket %i (port $port, SO_REUSEPORT)

[Socket]
ListenStream=$port

[Install]
WantedBy=sockets.target
EOF

# The parent pom builds it with the others: one more module before the end of the list.
grep -q "<module>$module</module>" "$root/pom.xml" \
  || sed -i "0,/^  <\/modules>/s||    <module>$module</module>\n  </modules>|" "$root/pom.xml"

# k8s/base lists every service, and the dev and prod overlays build on it: one more entry at the
# end of its resources. (The bench overlay runs rpc-server and the bench Job only.)
# $1 file, $2 the line that starts the list, $3 the entry: appended after the list's last item.
append_to_list() {
  awk -v head="$2" -v entry="$3" '
    $0 == head { inside = 1; print; next }
    inside && !/^    / && !/^  - / { print entry; inside = 0 }
    { print }
    END { if (inside) print entry }
  ' "$1" > "$1.new" && mv "$1.new" "$1"
}
grep -q "^  - $module\$" "$root/k8s/base/kustomization.yaml" \
  || append_to_list "$root/k8s/base/kustomization.yaml" "resources:" "  - $module"
# The prod overlay is where every image is pointed at a registry: one more entry there.
grep -q "^  - name: portshare-$module\$" "$root/k8s/overlays/prod/kustomization.yaml" \
  || append_to_list "$root/k8s/overlays/prod/kustomization.yaml" "images:" \
    "  - name: portshare-$module"$'\n'"    newName: portshare-$module"

echo "$me: wrote $module/ ($pkg), k8s/base/$module/, deploy/systemd/portshare-$name@.{service,socket};" \
  "added $module to pom.xml, k8s/base and the prod overlay's images"
echo "  build and test it:  ./mvnw -B -pl $module -am verify"
echo "  run it:             java -jar $module/target/portshare-$module.jar   (HTTP on :$port, admin on :$admin)"
echo "  ask it:             curl localhost:$port/hello; curl localhost:$port/   (routes: $module/src/main/java/io/portshare/$name/${class}Routes.java)"
echo "  its manifests:      kubectl kustomize k8s/base/$module   (alone, at a tag you set: k8s/README.md, \"Image tags\")"
echo "  with the others:    deploy/k8s.sh render dev|prod   (deploy/k8s.sh apply dev deploys them)"
