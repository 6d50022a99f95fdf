package io.portshare.web.internal;

import io.netty.buffer.ByteBufUtil;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

/**
 * What --engine vertx answers with for one representation of a file, worked out once per cache entry
 * as {@link CachedFile#fields} is for the own engine: its header values pre-encoded
 * ({@link HttpHeaders#createOptimized}) and its bytes, when it is answered from memory, copied once
 * into a Vert.x Buffer. Wrapping the cached direct buffer instead would save that copy but needs
 * Vert.x's internal BufferInternal, which only the runtime may name (VertxInternalsTest).
 */
public final class VertxFileHead {

  public final CharSequence etag;
  public final CharSequence lastModified;
  public final CharSequence contentType;
  public final CharSequence contentLength;
  /** The whole file, or null when it goes out by sendfile or copying. */
  public final Buffer body;

  public VertxFileHead(CachedFile rep) {
    this.etag = HttpHeaders.createOptimized(rep.etag);
    this.lastModified = HttpHeaders.createOptimized(HttpDates.format(rep.modifiedMillis));
    this.contentType = HttpHeaders.createOptimized(rep.contentType.toString());
    this.contentLength = HttpHeaders.createOptimized(Long.toString(rep.size));
    this.body = rep.body == null ? null : Buffer.buffer(ByteBufUtil.getBytes(rep.body));
  }

  public static VertxFileHead of(CachedFile rep) {
    VertxFileHead h = rep.vertxHead;
    if (h == null) {
      h = new VertxFileHead(rep);
      rep.vertxHead = h;
    }
    return h;
  }
}
