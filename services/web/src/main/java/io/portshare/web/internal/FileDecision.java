package io.portshare.web.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.function.Function;

/**
 * What a GET or HEAD of a cached file is answered with, decided from the request's head alone, the
 * same on both engines (the own engine's {@code FileAnswers}, portshare-web's {@code StaticFiles}),
 * which only write it: which representation ({@code .gz} sibling by {@link AcceptEncoding}), the
 * status ({@link Precondition}: 304, 412; {@link ByteRange}: 206, 416; else 200), the header fields
 * that depend on it and the bytes of the body. Every answer carries the representation's validators,
 * {@code Accept-Ranges}, and {@code Content-Encoding}/{@code Vary} as {@link #gzip}/{@link #vary} say.
 */
public final class FileDecision {

  /** 200, 206, 304, 412 or 416. */
  public final int status;
  /** The representation answered: the file or its {@code .gz} sibling. */
  public final CachedFile rep;
  /** {@code Content-Encoding: gzip}: the representation is the sibling. */
  public final boolean gzip;
  /** {@code Vary: Accept-Encoding}: the file has a sibling, so the answer depends on that header. */
  public final boolean vary;
  /** {@code Content-Type} goes out: the answer is the representation or part of it (200, 206). */
  public final boolean typed;
  /** {@code Content-Range}'s value (206, 416), or null. */
  public final String contentRange;
  /** {@code Content-Length}'s value, or -1 for none (304). */
  public final long contentLength;
  /** Where in the representation the body starts. */
  public final long offset;
  /** The body's bytes that go out: 0 for HEAD and every answer without a body. */
  public final long bodyLength;

  private FileDecision(int status, CachedFile rep, boolean gzip, boolean vary, String contentRange,
      long contentLength, long offset, long bodyLength) {
    this.status = status;
    this.rep = rep;
    this.gzip = gzip;
    this.vary = vary;
    this.typed = status == 200 || status == 206;
    this.contentRange = contentRange;
    this.contentLength = contentLength;
    this.offset = offset;
    this.bodyLength = bodyLength;
  }

  /**
   * The answer to a GET ({@code head} false) or HEAD of {@code file}; {@code headers} gives a request
   * header's value by its name (case-insensitive), null when absent: Netty's and Vert.x's
   * {@code get(CharSequence)}.
   */
  public static FileDecision of(CachedFile file, boolean head, Function<CharSequence, String> headers) {
    CachedFile rep = file;
    if (file.gzip != null && AcceptEncoding.allowsGzip(headers.apply(HttpHeaderNames.ACCEPT_ENCODING))) {
      rep = file.gzip;
    }
    boolean gzip = rep != file;
    boolean vary = file.gzip != null;
    Precondition precondition = Precondition.of(headers.apply(HttpHeaderNames.IF_UNMODIFIED_SINCE),
        headers.apply(HttpHeaderNames.IF_NONE_MATCH), headers.apply(HttpHeaderNames.IF_MODIFIED_SINCE), rep.etag,
        rep.modifiedSeconds);
    if (precondition == Precondition.FAILED) {
      return new FileDecision(412, rep, gzip, vary, null, 0, 0, 0);
    }
    if (precondition == Precondition.NOT_MODIFIED) {
      return new FileDecision(304, rep, gzip, vary, null, -1, 0, 0);
    }
    String range = headers.apply(HttpHeaderNames.RANGE);
    long[] r = range == null ? null
        : ByteRange.of(range, headers.apply(HttpHeaderNames.IF_RANGE), rep.size, rep.etag, rep.modifiedSeconds);
    if (r == ByteRange.UNSATISFIABLE) {
      return new FileDecision(416, rep, gzip, vary, "bytes */" + rep.size, 0, 0, 0);
    }
    if (r != null) {
      long length = r[1] - r[0] + 1;
      return new FileDecision(206, rep, gzip, vary, "bytes " + r[0] + "-" + r[1] + "/" + rep.size, length, r[0],
          head ? 0 : length);
    }
    return new FileDecision(200, rep, gzip, vary, null, rep.size, 0, head ? 0 : rep.size);
  }

  /** Whether the body goes out from the cache's memory (else from the file: sendfile or copying). */
  public boolean fromMemory() {
    return rep.body != null;
  }
}
