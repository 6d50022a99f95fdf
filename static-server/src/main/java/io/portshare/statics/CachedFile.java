package io.portshare.statics;

import io.netty.buffer.Unpooled;
import io.portshare.runtime.NettyAccess;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What one file answers with, worked out once: its header values pre-encoded, and, when small,
 * its bytes. The equivalent of an nginx open_file_cache entry plus the response head.
 */
final class CachedFile implements FileCache.Found, Route {

  final Path path;
  final String pathString;
  final long size;
  final long modifiedMillis;
  final long modifiedSeconds;
  final CharSequence contentType;
  final CharSequence contentLength;
  final String etag;
  final CharSequence etagHeader;
  final CharSequence lastModified;
  /** The whole file, for files up to --memory-max; null when it goes out by sendfile or copying. */
  final Buffer body;
  /** The pre-compressed {@code .gz} sibling, or null. */
  final CachedFile gzip;
  long checkedAt;

  CachedFile(Path path, long size, long modifiedMillis, CharSequence contentType, byte[] bytes, CachedFile gzip,
      long now) {
    this.path = path;
    this.pathString = path.toString();
    this.size = size;
    this.modifiedMillis = modifiedMillis;
    this.modifiedSeconds = modifiedMillis / 1000;
    this.contentType = contentType;
    this.contentLength = HttpHeaders.createOptimized(Long.toString(size));
    // The shape nginx uses: hex mtime and size. A gzip sibling is another representation, so another tag.
    this.etag = "\"" + Long.toHexString(modifiedSeconds) + "-" + Long.toHexString(size) + "\"";
    this.etagHeader = HttpHeaders.createOptimized(etag);
    this.lastModified = HttpHeaders.createOptimized(HttpDates.format(modifiedMillis));
    this.body = bytes == null ? null : directBuffer(bytes);
    this.gzip = gzip;
    this.checkedAt = now;
  }

  /**
   * A direct buffer goes to the socket as it is; a heap one would be copied into a direct one on
   * every write. It is a JDK buffer, freed by the GC when its cache entry goes (Netty's own direct
   * buffers are freed only by release()), and unreleasable, since every answer writes a duplicate.
   */
  static Buffer directBuffer(byte[] bytes) {
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
    direct.put(bytes).flip();
    return NettyAccess.buffer(Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(direct)));
  }

  boolean sameAs(long size, long modifiedMillis) {
    return this.size == size && this.modifiedMillis == modifiedMillis;
  }
}
