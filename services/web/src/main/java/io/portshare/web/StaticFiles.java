package io.portshare.web;

import io.portshare.web.internal.FileCache;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.io.Closeable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Static files for a vertx-web {@link io.vertx.ext.web.Router}, answered as the static service answers
 * them: {@code ETag} and {@code Last-Modified}, 304 by either, 412 for {@code If-Unmodified-Since},
 * one {@code Range} (206, 416, {@code If-Range}), HEAD, a {@code name.gz} sibling sent with
 * {@code Content-Encoding: gzip} and {@code Vary: Accept-Encoding} to clients that take gzip, an index
 * file for a directory (a redirect to the slash first), an optional listing, hidden names refused.
 *
 * <pre>{@code
 * router.route("/assets/*").handler(StaticFiles.webroot(Path.of("site")).maxAge(Duration.ofHours(1)).build());
 * router.route().handler(ctx -> ctx.response().setStatusCode(404).end());
 * }</pre>
 *
 * <p><b>Where it looks.</b> The path it serves is the request's relative to where the handler is
 * routed: the mount point of a sub-router ({@link RoutingContext#mountPoint()}) and the prefix of a
 * {@code "/prefix/*"} route, as vertx-web's own StaticHandler reckons it. It decodes that part of the
 * raw path once and strictly ({@code ..} in any spelling, a backslash, a control byte, malformed
 * UTF-8 answer 400 here, never reaching the disk); the real path of what it finds must lie under the
 * root, so a symlink out of it is not served.
 *
 * <p><b>What it passes on.</b> A request it does not serve goes to the next route with
 * {@code ctx.next()}: a method other than GET and HEAD, a path with nothing there, a hidden name
 * (unless {@link Builder#hidden(boolean)}), a directory without an index when listings are off. So a
 * later route (an API, a single-page app's fallback, the Router's 404) answers it.
 *
 * <p><b>What a request costs.</b> Each event loop keeps a cache of its own (no lock), by raw path: a
 * hit is one map lookup and makes no file-system call; a body up to {@link Builder#memoryMax(long)}
 * goes out from memory with {@code end(Buffer)}, a larger one by {@code sendFile} from a descriptor
 * the cache opened when it looked the file up and keeps open with its entry (sendfile(2) and Vert.x's
 * fstat(2) of the channel, no open(2), no close(2); up to {@link Builder#openFilesMax(int)} per event
 * loop, past that an open(2) and close(2) per answer). A miss never blocks the event loop: the stat,
 * realpath, read and open run on a worker ({@link Vertx#executeBlocking}) and what they found, misses
 * too, is kept and trusted for {@link Builder#revalidate(Duration)} (one second by default), so a
 * changed file shows within that and the disk is asked at most once per period per path; a file
 * changed or evicted is closed once the last answer being sent from it is out. A directory listing is
 * read on a worker each time (listings are opt-in and rare).
 *
 * <p><b>Closing it.</b> The descriptors it keeps open are the handler's until {@link #close()}: call
 * that from the {@code stop()} of the verticle whose routes use it, or, with no verticle, when its
 * server is closed. Vert.x's public API has no hook that would tell the handler its verticle went away
 * (a context's close hooks are internal API), so it cannot do this by itself. Answers still being sent
 * keep their file open until written; the handler goes on answering after close, opening each large
 * file per answer.
 *
 * <pre>{@code
 * public Future<?> start() {
 *   files = StaticFiles.webroot(Path.of("site")).build();
 *   router.route().handler(files);
 *   ...
 * }
 * public Future<?> stop() throws Exception {
 *   files.close();
 *   return super.stop();
 * }
 * }</pre>
 *
 * <p><b>Metrics.</b> The handler keeps none. Vert.x's own ({@code VertxOptions.setMetricsOptions},
 * vertx-micrometer-metrics) count every request and response it answers; to count what it answers in
 * meters of your own, give it an {@link AnswerListener}: one call per answer it gives (none for a
 * request it passes on), with the status and how the body went out.
 *
 * <p>It needs vertx-web and nothing of the portshare runtime: it runs on stock Vert.x 5.
 */
public final class StaticFiles implements Handler<RoutingContext>, Closeable {

  /** How an answer's body went out. */
  public enum Body {
    /** No body: HEAD, 304, 412, 416, 301, or an empty file. */
    NONE,
    /** From the cache's memory, with {@code end(Buffer)}. */
    MEMORY,
    /** By sendfile(2): zero copy. */
    SENDFILE,
    /** Read from the file in chunks and written ({@link Builder#sendfile(boolean)} false). */
    COPY
  }

  /** Told of each answer the handler gives, on the event loop that gives it; it must not block. */
  @FunctionalInterface
  public interface AnswerListener {
    /** An answer of {@code status} whose body, {@code bodyBytes} long, goes out by {@code body}. */
    void answered(int status, long bodyBytes, Body body);
  }

  private static final AnswerListener NO_LISTENER = (status, bytes, body) -> { };

  private final FileRequests requests;

  private StaticFiles(Builder b, SiteRoot site) {
    FileCache.Config config = new FileCache.Config(b.index, b.hidden, b.gzip, b.cacheEntries, b.memoryMax,
        Math.max(b.memoryMax, b.cacheBytes), b.revalidate.toMillis(), true, b.sendfile ? b.openFilesMax : 0);
    Answers answers = new Answers(b.sendfile, b.cacheControl == null || b.cacheControl.isEmpty() ? null
        : HttpHeaders.createOptimized(b.cacheControl), b.listener == null ? NO_LISTENER : b.listener);
    this.requests = new FileRequests(site, config, b.listing, b.missesOnEventLoop, answers);
  }

  /** Files of a directory on disk. */
  public static Builder webroot(Path dir) {
    Builder b = new Builder();
    b.webroot = Objects.requireNonNull(dir, "dir");
    return b;
  }

  /**
   * Files of a directory on the class path ({@code "webroot"} for src/main/resources/webroot), through
   * the thread's context class loader. A directory of the file system (an IDE, target/classes) is
   * served in place; one inside a jar is copied once, on a worker at the first request, to a
   * temporary directory (deleted when the JVM exits), so that large files can still go by sendfile.
   */
  public static Builder classpath(String root) {
    Builder b = new Builder();
    String r = Objects.requireNonNull(root, "root");
    while (r.startsWith("/")) {
      r = r.substring(1);
    }
    while (r.endsWith("/")) {
      r = r.substring(0, r.length() - 1);
    }
    b.classpathRoot = r;
    b.loader = Thread.currentThread().getContextClassLoader();
    if (b.loader == null) {
      b.loader = StaticFiles.class.getClassLoader();
    }
    return b;
  }

  /** How a {@link StaticFiles} handler serves; every setting has a default. */
  public static final class Builder {
    private Path webroot;
    private String classpathRoot;
    private ClassLoader loader;
    private String index = "index.html";
    private boolean listing;
    private boolean hidden;
    private boolean gzip = true;
    private int cacheEntries = 4096;
    private long cacheBytes = 64L << 20;
    private long memoryMax = 32 << 10;
    private Duration revalidate = Duration.ofSeconds(1);
    private boolean sendfile = true;
    private int openFilesMax = FileCache.OPEN_FILES_MAX;
    private boolean missesOnEventLoop;
    private String cacheControl;
    private AnswerListener listener;

    private Builder() {}

    /** The file a directory answers with (default {@code index.html}); null or empty for none. */
    public Builder index(String name) {
      this.index = name == null || name.isEmpty() ? null : name;
      return this;
    }

    /** Whether a directory without an index answers an HTML list of its entries (default false: next()). */
    public Builder listing(boolean on) {
      this.listing = on;
      return this;
    }

    /** Whether names starting with a dot ({@code .env}, {@code .git/}) are served (default false: next()). */
    public Builder hidden(boolean on) {
      this.hidden = on;
      return this;
    }

    /** Whether a {@code name.gz} beside {@code name} is sent to clients that accept gzip (default true). */
    public Builder gzipSiblings(boolean on) {
      this.gzip = on;
      return this;
    }

    /** How many paths each event loop's cache keeps, files and misses each (default 4096). */
    public Builder cacheEntries(int entries) {
      if (entries < 1) {
        throw new IllegalArgumentException("cacheEntries must be at least 1: " + entries);
      }
      this.cacheEntries = entries;
      return this;
    }

    /** The bytes of file bodies each event loop's cache keeps in memory (default 64 MiB). */
    public Builder cacheBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("cacheBytes must not be negative: " + bytes);
      }
      this.cacheBytes = bytes;
      return this;
    }

    /** Files up to this size are answered from memory, larger ones by sendfile (default 32 KiB; 0: all by sendfile). */
    public Builder memoryMax(long bytes) {
      if (bytes < 0 || bytes > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("memoryMax must be 0 to 2 GiB: " + bytes);
      }
      this.memoryMax = bytes;
      return this;
    }

    /** How long what the disk said about a path is trusted before it is asked again (default 1 s). */
    public Builder revalidate(Duration period) {
      if (period.isNegative()) {
        throw new IllegalArgumentException("revalidate must not be negative: " + period);
      }
      this.revalidate = period;
      return this;
    }

    /** Whether large bodies go by sendfile(2) (default) or are read in 64 KiB chunks and written. */
    public Builder sendfile(boolean on) {
      this.sendfile = on;
      return this;
    }

    /**
     * How many files sent by sendfile (those past {@link #memoryMax(long)}) each event loop's cache
     * keeps open (default 128; 0: none, each such answer opens and closes its file). Each is one
     * descriptor of the process's open files limit ({@code ulimit -n}) beside its connections, held
     * from the file's lookup until it changes on disk, leaves the cache or the handler is
     * {@link StaticFiles#close() closed}: at most this many times the event loops the handler runs on.
     * Past it, answers open their file.
     */
    public Builder openFilesMax(int files) {
      if (files < 0) {
        throw new IllegalArgumentException("openFilesMax must not be negative: " + files);
      }
      this.openFilesMax = files;
      return this;
    }

    /**
     * Whether a miss is looked up on the event loop itself (default false: on a worker). A stat from
     * the page cache costs microseconds, and the answer then leaves while the request is being read,
     * so a client that half-closes right after its request still gets it: Vert.x 5 leaves Netty's
     * ALLOW_HALF_CLOSURE off, so the connection is closed as soon as the client's FIN is read, before
     * a worker's lookup is back (static-server sets this, as its own engine looks up in line). The
     * portshare runtime's HTTP servers answer such a client either way, unless run with
     * {@code --answer-half-closed=false}. But a slow disk stalls every connection of that event loop,
     * and Vert.x warns of a blocked thread.
     */
    public Builder missesOnEventLoop(boolean on) {
      this.missesOnEventLoop = on;
      return this;
    }

    /** The {@code Cache-Control} of every file answer (default none); null or empty for none. */
    public Builder cacheControl(String value) {
      this.cacheControl = value;
      return this;
    }

    /** {@code Cache-Control: public, max-age=N}, N the whole seconds of {@code maxAge}. */
    public Builder maxAge(Duration maxAge) {
      return cacheControl("public, max-age=" + maxAge.toSeconds());
    }

    /** Told of each answer given; see {@link AnswerListener}. */
    public Builder listener(AnswerListener listener) {
      this.listener = listener;
      return this;
    }

    /**
     * The handler. A webroot must be a directory and a class path root must be found now (cheap checks,
     * made once where the handler is set up), so that a mistake fails at start, not as 404s.
     */
    public StaticFiles build() {
      return new StaticFiles(this, webroot != null ? SiteRoot.directory(webroot) : SiteRoot.classpath(classpathRoot, loader));
    }
  }

  @Override
  public void handle(RoutingContext ctx) {
    requests.handle(ctx);
  }

  /**
   * Closes the files the handler keeps open for sendfile: those of this event loop's cache at once,
   * those of the other event loops it ran on by a task on each. An answer still being sent from one
   * closes it once written. The handler keeps answering (opening each large file per answer), so a
   * request that arrives between the verticle's stop and its server's close is still served. Call it
   * from the verticle's {@code stop()}; a second call does nothing.
   */
  @Override
  public void close() {
    requests.close();
  }
}
