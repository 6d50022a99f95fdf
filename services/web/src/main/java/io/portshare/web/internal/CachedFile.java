package io.portshare.web.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What one file answers with, worked out once: its header fields pre-encoded, and, when small,
 * its bytes. The equivalent of an nginx open_file_cache entry plus the response head.
 */
public final class CachedFile implements FileCache.Found, Route {

  public final Path path;
  public final String pathString;
  public final long size;
  public final long modifiedMillis;
  public final long modifiedSeconds;
  public final CharSequence contentType;
  public final String etag;
  /** {@code content-type: ...} with its line end. */
  public final byte[] typeField;
  /** {@code content-length: ...} of the whole file, with its line end. */
  public final byte[] lengthField;
  /** The whole file, for files up to --memory-max; null when it goes out by sendfile or copying. */
  public final ByteBuf body;
  /** The pre-compressed {@code .gz} sibling, or null. */
  public final CachedFile gzip;
  /**
   * The fields every answer with this representation carries (validators, accept-ranges, and those
   * the server's settings add), encoded by {@link FileAnswers} on first use; null until then.
   */
  public byte[] fields;
  /** The same for --engine vertx, as Vert.x header values ({@link VertxFileHead}); null until first used. */
  public VertxFileHead vertxHead;
  public long checkedAt;
  /**
   * The file kept open for sendfile answers ({@link FileCache.Config#openFilesMax}), or null: then each
   * such answer opens it. Set when the file is looked up; its cache holds a reference to it, and clears
   * this when it gives that back (the entry evicted or replaced, the cache closed).
   */
  public OpenFile open;

  public CachedFile(Path path, long size, long modifiedMillis, CharSequence contentType, byte[] bytes, CachedFile gzip,
      long now) {
    this.path = path;
    this.pathString = path.toString();
    this.size = size;
    this.modifiedMillis = modifiedMillis;
    this.modifiedSeconds = modifiedMillis / 1000;
    this.contentType = contentType;
    // The shape nginx uses: hex mtime and size. A gzip sibling is another representation, so another tag.
    this.etag = "\"" + Long.toHexString(modifiedSeconds) + "-" + Long.toHexString(size) + "\"";
    this.typeField = field("content-type", contentType.toString());
    this.lengthField = field("content-length", Long.toString(size));
    this.body = bytes == null ? null : directBuffer(bytes);
    this.gzip = gzip;
    this.checkedAt = now;
  }

  /** One header field line, {@code name: value} and CRLF, in the bytes it goes out as. */
  public static byte[] field(String name, String value) {
    return (name + ": " + value + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * A direct buffer goes to the socket as it is; a heap one would be copied into a direct one on
   * every write. It is a JDK buffer, freed by the GC when its cache entry goes (Netty's own direct
   * buffers are freed only by release()), and unreleasable, since every answer writes a duplicate.
   */
  public static ByteBuf directBuffer(byte[] bytes) {
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
    direct.put(bytes).flip();
    return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(direct));
  }

  public boolean sameAs(long size, long modifiedMillis) {
    return this.size == size && this.modifiedMillis == modifiedMillis;
  }
}
