package io.portshare.web;

import io.portshare.web.internal.AcceptEncoding;
import io.portshare.web.internal.ByteRange;
import io.portshare.web.internal.CachedFile;
import io.portshare.web.internal.DirectoryListing;
import io.portshare.web.internal.FileCache;
import io.portshare.web.internal.Precondition;
import io.portshare.web.internal.RequestPath;
import io.portshare.web.internal.VertxFileHead;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

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
 * goes out from memory with {@code end(Buffer)}, a larger one by {@code sendFile} on the cached real
 * path (an open(2) and sendfile(2), no stat). A miss never blocks the event loop: the stat, realpath
 * and read run on a worker ({@link Vertx#executeBlocking}) and what they found, misses too, is kept
 * and trusted for {@link Builder#revalidate(Duration)} (one second by default), so a changed file shows
 * within that and the disk is asked at most once per period per path. A directory listing is read on
 * a worker each time (listings are opt-in and rare).
 *
 * <p><b>Metrics.</b> The handler keeps none. Vert.x's own ({@code VertxOptions.setMetricsOptions},
 * vertx-micrometer-metrics) count every request and response it answers; to count what it answers in
 * meters of your own, give it an {@link AnswerListener}: one call per answer it gives (none for a
 * request it passes on), with the status and how the body went out.
 *
 * <p>It needs vertx-web and nothing of the portshare runtime: it runs on stock Vert.x 5.
 */
public final class StaticFiles implements Handler<RoutingContext> {

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

  private static final CharSequence IF_UNMODIFIED_SINCE = HttpHeaders.createOptimized("If-Unmodified-Since");
  private static final CharSequence RANGE = HttpHeaders.createOptimized("Range");
  private static final CharSequence IF_RANGE = HttpHeaders.createOptimized("If-Range");
  private static final CharSequence GZIP = HttpHeaders.createOptimized("gzip");
  private static final CharSequence ACCEPT_ENCODING = HttpHeaders.createOptimized("Accept-Encoding");
  private static final CharSequence BYTES = HttpHeaders.createOptimized("bytes");
  private static final CharSequence ZERO = HttpHeaders.createOptimized("0");
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final CharSequence HTML = HttpHeaders.createOptimized("text/html; charset=utf-8");
  private static final Buffer BAD_REQUEST = Buffer.buffer("Bad Request\n");
  private static final int CHUNK = 64 * 1024;
  private static final AnswerListener NO_LISTENER = (status, bytes, body) -> { };

  private final Path webroot;
  private final String classpathRoot;
  private final ClassLoader loader;
  private final FileCache.Config config;
  private final boolean listing;
  private final boolean sendfile;
  private final boolean missesOnEventLoop;
  private final CharSequence cacheControl;
  private final AnswerListener listener;
  private final OpenOptions reading = new OpenOptions().setRead(true);
  /** Each thread's cache (an event loop's, in practice); null until the root is known. */
  private final ThreadLocal<FileCache> caches = new ThreadLocal<>();
  /** The root's real path, and a cache used only to resolve paths (it keeps nothing): set once, on a worker. */
  private volatile FileCache resolver;

  private StaticFiles(Builder b) {
    this.webroot = b.webroot;
    this.classpathRoot = b.classpathRoot;
    this.loader = b.loader;
    this.config = new FileCache.Config(b.index, b.hidden, b.gzip, b.cacheEntries, b.memoryMax,
        Math.max(b.memoryMax, b.cacheBytes), b.revalidate.toMillis(), true);
    this.listing = b.listing;
    this.sendfile = b.sendfile;
    this.missesOnEventLoop = b.missesOnEventLoop;
    this.cacheControl = b.cacheControl == null || b.cacheControl.isEmpty() ? null
        : HttpHeaders.createOptimized(b.cacheControl);
    this.listener = b.listener == null ? NO_LISTENER : b.listener;
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
     * Whether a miss is looked up on the event loop itself (default false: on a worker). A stat from
     * the page cache costs microseconds, and the answer then leaves before the event loop reads
     * anything more from the connection (static-server does this, as its own engine does: a client
     * that half-closes right after its request still gets the answer); but a slow disk stalls every
     * connection of that event loop, and Vert.x warns of a blocked thread.
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
      if (webroot != null && !Files.isDirectory(webroot)) {
        throw new IllegalArgumentException("not a directory: " + webroot);
      }
      if (classpathRoot != null && resource(loader, classpathRoot) == null) {
        throw new IllegalArgumentException("not on the class path: " + classpathRoot);
      }
      return new StaticFiles(this);
    }
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    HttpMethod method = req.method();
    boolean head = HttpMethod.HEAD.equals(method);
    if (!head && !HttpMethod.GET.equals(method)) {
      ctx.next();
      return;
    }
    String full = RequestPath.rawPath(req.uri());
    String path = relative(ctx, full);
    if (path == null) {
      redirectToSlash(ctx, full, head);
      return;
    }
    long now = System.currentTimeMillis();
    FileCache cache = caches.get();
    if (cache != null) {
      CachedFile file = cache.get(path, now);
      if (file != null) {
        serve(ctx, file, head);
        return;
      }
      FileCache.Miss miss = cache.miss(path, now);
      if (miss != null) {
        miss(ctx, miss, full, path, head);
        return;
      }
    }
    RequestPath decoded = RequestPath.of(path, config.hidden());
    if (decoded.refused()) {
      if (decoded.refusal() == RequestPath.BAD_REQUEST) {
        badRequest(ctx, head);
      } else {
        ctx.next();
      }
      return;
    }
    CachedFile old = cache == null ? null : cache.stale(path);
    if (missesOnEventLoop) {
      FileCache.Found found;
      try {
        found = cacheHere(resolver()).store(path, resolver().resolve(decoded, old, now), now);
      } catch (IOException | RuntimeException e) {
        ctx.fail(e);
        return;
      }
      if (found instanceof CachedFile file) {
        serve(ctx, file, head);
      } else {
        miss(ctx, (FileCache.Miss) found, full, path, head);
      }
      return;
    }
    ctx.vertx().executeBlocking(() -> resolver().resolve(decoded, old, now), false).onComplete(done -> {
      if (done.failed()) {
        ctx.fail(done.cause());
        return;
      }
      FileCache.Found found = cacheHere(resolver).store(path, done.result(), System.currentTimeMillis());
      if (found instanceof CachedFile file) {
        serve(ctx, file, head);
      } else {
        miss(ctx, (FileCache.Miss) found, full, path, head);
      }
    });
  }

  /**
   * The raw path below where this handler is routed, starting with '/'; null when the request names
   * the mount itself without its slash ({@code /assets} for {@code /assets/*}), which is redirected.
   * The offset is reckoned on the normalized path, as vertx-web's StaticHandler does (the mount
   * point, then the route's own prefix); the raw path is used below it when it starts with the same
   * prefix, so that its strict decoding (400 for {@code ..} in any spelling) is the one applied.
   */
  static String relative(RoutingContext ctx, String raw) {
    int offset = 0;
    String mount = ctx.mountPoint();
    if (mount != null) {
      offset += mount.endsWith("/") ? mount.length() - 1 : mount.length();
    }
    Route route = ctx.currentRoute();
    if (route != null && !route.isRegexPath() && route.getPath() != null) {
      String p = route.getPath();
      offset += p.endsWith("/") ? p.length() - 1 : p.length();
    }
    if (offset == 0) {
      return raw; // the raw path as it is: vertx-web's normalizing refuses malformed escapes with an exception
    }
    String normalized;
    try {
      normalized = ctx.normalizedPath();
    } catch (RuntimeException malformed) {
      return raw.startsWith("/") ? raw.substring(0, 1) + "%" : "%"; // refused as a bad request below
    }
    if (offset > normalized.length()) {
      offset = normalized.length();
    }
    String prefix = normalized.substring(0, offset);
    String rest;
    if (raw.startsWith(prefix) && (raw.length() == offset || raw.charAt(offset) == '/')) {
      rest = raw.substring(offset);
    } else {
      rest = normalized.substring(offset);
    }
    return rest.isEmpty() ? null : rest;
  }

  private FileCache resolver() throws IOException {
    FileCache r = resolver;
    if (r == null) {
      synchronized (this) {
        r = resolver;
        if (r == null) {
          r = new FileCache(realRoot(), config);
          resolver = r;
        }
      }
    }
    return r;
  }

  /** This thread's cache, made on its first miss (after {@link #resolver()} has found the root). */
  private FileCache cacheHere(FileCache resolver) {
    FileCache c = caches.get();
    if (c == null) {
      c = new FileCache(resolver.root(), config);
      caches.set(c);
    }
    return c;
  }

  private void miss(RoutingContext ctx, FileCache.Miss miss, String full, String path, boolean head) {
    switch (miss) {
      case DIRECTORY_NEEDS_SLASH -> redirectToSlash(ctx, full, head);
      case DIRECTORY_WITHOUT_INDEX -> {
        if (listing) {
          list(ctx, path, head);
        } else {
          ctx.next();
        }
      }
      default -> ctx.next();
    }
  }

  private void redirectToSlash(RoutingContext ctx, String full, boolean head) {
    String uri = ctx.request().uri();
    int q = uri.indexOf('?');
    listener.answered(301, 0, Body.NONE);
    ctx.response().setStatusCode(301)
        .putHeader(HttpHeaders.LOCATION, full + "/" + (q < 0 ? "" : uri.substring(q)))
        .putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
  }

  private void badRequest(RoutingContext ctx, boolean head) {
    listener.answered(400, 0, Body.NONE);
    HttpServerResponse resp = ctx.response().setStatusCode(400);
    resp.headers().add(HttpHeaders.CONTENT_TYPE, TEXT)
        .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(BAD_REQUEST.length()));
    if (head) {
      resp.end();
    } else {
      resp.end(BAD_REQUEST);
    }
  }

  private void list(RoutingContext ctx, String path, boolean head) {
    java.util.concurrent.Callable<byte[]> read =
        () -> new DirectoryListing(resolver().root(), config.hidden()).page(path);
    io.vertx.core.Future<byte[]> listed;
    if (missesOnEventLoop) {
      try {
        listed = io.vertx.core.Future.succeededFuture(read.call());
      } catch (Exception e) {
        listed = io.vertx.core.Future.failedFuture(e);
      }
    } else {
      listed = ctx.vertx().executeBlocking(read, false);
    }
    listed.onComplete(done -> {
          if (done.failed()) {
            ctx.fail(done.cause());
            return;
          }
          byte[] page = done.result();
          if (page == null) {
            ctx.next();
            return;
          }
          listener.answered(200, head ? 0 : page.length, head ? Body.NONE : Body.MEMORY);
          HttpServerResponse resp = ctx.response();
          resp.headers().add(HttpHeaders.CONTENT_TYPE, HTML)
              .add(HttpHeaders.CONTENT_LENGTH, Integer.toString(page.length));
          if (head) {
            resp.end();
          } else {
            resp.end(Buffer.buffer(page));
          }
        });
  }

  private void serve(RoutingContext ctx, CachedFile file, boolean head) {
    HttpServerRequest req = ctx.request();
    HttpServerResponse resp = ctx.response();
    MultiMap in = req.headers();
    CachedFile rep = file;
    if (file.gzip != null && AcceptEncoding.allowsGzip(in.get(HttpHeaders.ACCEPT_ENCODING))) {
      rep = file.gzip;
    }
    VertxFileHead h = VertxFileHead.of(rep);
    MultiMap out = resp.headers();
    out.add(HttpHeaders.ETAG, h.etag).add(HttpHeaders.LAST_MODIFIED, h.lastModified)
        .add(HttpHeaders.ACCEPT_RANGES, BYTES);
    if (rep != file) {
      out.add(HttpHeaders.CONTENT_ENCODING, GZIP);
    }
    if (file.gzip != null) {
      out.add(HttpHeaders.VARY, ACCEPT_ENCODING);
    }
    if (cacheControl != null) {
      out.add(HttpHeaders.CACHE_CONTROL, cacheControl);
    }
    Precondition precondition = Precondition.of(in.get(IF_UNMODIFIED_SINCE),
        in.get(HttpHeaders.IF_NONE_MATCH), in.get(HttpHeaders.IF_MODIFIED_SINCE), rep.etag, rep.modifiedSeconds);
    if (precondition == Precondition.FAILED) {
      listener.answered(412, 0, Body.NONE);
      resp.setStatusCode(412).putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
      return;
    }
    if (precondition == Precondition.NOT_MODIFIED) {
      listener.answered(304, 0, Body.NONE);
      resp.setStatusCode(304).end();
      return;
    }
    String range = in.get(RANGE);
    long[] r = range == null ? null : ByteRange.of(range, in.get(IF_RANGE), rep.size, rep.etag,
        rep.modifiedSeconds);
    if (r == ByteRange.UNSATISFIABLE) {
      listener.answered(416, 0, Body.NONE);
      resp.setStatusCode(416).putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + rep.size)
          .putHeader(HttpHeaders.CONTENT_LENGTH, ZERO).end();
      return;
    }
    long offset = 0;
    long length = rep.size;
    int status = 200;
    out.add(HttpHeaders.CONTENT_TYPE, h.contentType);
    if (r != null) {
      offset = r[0];
      length = r[1] - r[0] + 1;
      status = 206;
      resp.setStatusCode(206);
      out.add(HttpHeaders.CONTENT_RANGE, "bytes " + r[0] + "-" + r[1] + "/" + rep.size)
          .add(HttpHeaders.CONTENT_LENGTH, Long.toString(length));
    } else {
      out.add(HttpHeaders.CONTENT_LENGTH, h.contentLength);
    }
    if (head || length == 0) {
      listener.answered(status, 0, Body.NONE);
      resp.end();
      return;
    }
    if (h.body != null) {
      listener.answered(status, length, Body.MEMORY);
      resp.end(length == rep.size ? h.body : h.body.slice((int) offset, (int) (offset + length)));
    } else if (sendfile) {
      listener.answered(status, length, Body.SENDFILE);
      sendFile(req, rep, offset, length);
    } else {
      listener.answered(status, length, Body.COPY);
      copy(ctx, rep, offset, length);
    }
  }

  /**
   * By sendfile(2), on the path the cache resolved: an open(2), no stat (the size is the cache's). If
   * the file went away since it was checked the answer cannot be given (its head may be out) and the
   * connection is cut.
   */
  private static void sendFile(HttpServerRequest req, CachedFile rep, long offset, long length) {
    FileChannel channel;
    try {
      channel = FileChannel.open(rep.path, StandardOpenOption.READ);
    } catch (IOException e) {
      req.connection().close();
      return;
    }
    req.response().sendFile(channel, offset, length).onComplete(done -> {
      try {
        channel.close();
      } catch (IOException ignored) {
        // a read-only descriptor: nothing was left to write back
      }
      if (done.failed()) {
        req.connection().close();
      }
    });
  }

  /** The copying path: the file read in chunks off the event loop and piped to the response. */
  private void copy(RoutingContext ctx, CachedFile rep, long offset, long length) {
    HttpServerRequest req = ctx.request();
    ctx.vertx().fileSystem().open(rep.pathString, reading).onComplete(opened -> {
      if (opened.failed()) {
        req.connection().close();
        return;
      }
      AsyncFile file = opened.result();
      file.setReadPos(offset).setReadLength(length).setReadBufferSize(CHUNK);
      file.pipeTo(req.response()).onComplete(done -> file.close());
    });
  }

  /** The root's real path; a class path root inside a jar is copied out first. Blocking: on a worker. */
  private Path realRoot() throws IOException {
    if (webroot != null) {
      return webroot.toRealPath();
    }
    URL url = resource(loader, classpathRoot);
    if (url == null) {
      throw new IOException("not on the class path: " + classpathRoot);
    }
    if ("file".equals(url.getProtocol())) {
      try {
        return Path.of(url.toURI()).toRealPath();
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
    if (url.openConnection() instanceof JarURLConnection jar) {
      jar.setUseCaches(false);
      try (JarFile file = jar.getJarFile()) {
        return extract(file, classpathRoot + "/").toRealPath();
      }
    }
    throw new IOException("a class path root neither in a directory nor in a jar: " + url);
  }

  private static URL resource(ClassLoader loader, String root) {
    URL url = loader.getResource(root);
    return url != null ? url : loader.getResource(root + "/");
  }

  /** The entries of a jar under {@code prefix}, copied to a new temporary directory deleted at exit. */
  private static Path extract(JarFile jar, String prefix) throws IOException {
    Path dir = Files.createTempDirectory("portshare-web-");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "portshare-web-cleanup"));
    Enumeration<JarEntry> entries = jar.entries();
    while (entries.hasMoreElements()) {
      JarEntry e = entries.nextElement();
      if (!e.getName().startsWith(prefix) || e.getName().length() == prefix.length()) {
        continue;
      }
      Path target = dir.resolve(e.getName().substring(prefix.length())).normalize();
      if (!target.startsWith(dir)) {
        continue; // a name with ".." in it: never written outside the copy
      }
      if (e.isDirectory()) {
        Files.createDirectories(target);
      } else {
        Files.createDirectories(target.getParent());
        try (InputStream in = jar.getInputStream(e)) {
          Files.copy(in, target);
        }
      }
    }
    return dir;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException ignored) {
      // a temporary directory: what is left, the system's cleaning takes
    }
  }
}
