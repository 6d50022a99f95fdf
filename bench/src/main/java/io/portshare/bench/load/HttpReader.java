package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;

/**
 * An HTTP/1.1 response: status line and headers up to the blank line, then a body of exactly
 * {@code Content-Length} bytes, which must be the length asked for. A status outside 2xx, a
 * length other than the file's, a head without a length (chunked) or longer than 16 KiB, and a body cut
 * short by a close are errors. The head is gathered in one reused array; the body is only counted.
 */
final class HttpReader extends ReplyReader {

  private static final int MAX_HEAD = 16 * 1024;
  private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private final long bodyLength;
  private final byte[] head = new byte[MAX_HEAD];
  private int headLength;
  /** Body bytes still to come; -1 while reading the head. */
  private long bodyLeft = -1;

  HttpReader(long bodyLength) {
    this.bodyLength = bodyLength;
  }

  @Override
  int read(ByteBuf buf, int index, int end) {
    complete = false;
    if (bodyLeft < 0) {
      int i = index;
      while (i < end) {
        if (headLength == MAX_HEAD) {
          error = ErrorKind.OTHER;
          return i - index;
        }
        head[headLength++] = buf.getByte(i++);
        if (headLength >= 4 && head[headLength - 1] == '\n' && head[headLength - 2] == '\r'
            && head[headLength - 3] == '\n' && head[headLength - 4] == '\r') {
          headDone();
          if (error != null || complete) {
            return i - index;
          }
          return i - index + body(buf, i, end);
        }
      }
      return i - index;
    }
    return body(buf, index, end);
  }

  private void headDone() {
    int status = status();
    long length = contentLength();
    headLength = 0;
    if (status < 200 || status > 299) {
      error = ErrorKind.STATUS;
    } else if (length < 0) {
      error = ErrorKind.OTHER;
    } else if (length != bodyLength) {
      error = ErrorKind.SHORT_BODY;
    } else {
      bodyLeft = length;
      if (length == 0) {
        bodyLeft = -1;
        complete = true;
      }
    }
  }

  private int body(ByteBuf buf, int index, int end) {
    int n = (int) Math.min(end - index, bodyLeft);
    bodyLeft -= n;
    if (bodyLeft == 0) {
      bodyLeft = -1;
      complete = true;
    }
    return n;
  }

  /** "HTTP/1.1 200 ...": the three digits after the first space; -1 if there are none. */
  private int status() {
    int sp = 0;
    while (sp < headLength && head[sp] != ' ') {
      sp++;
    }
    if (sp + 3 >= headLength) {
      return -1;
    }
    int s = 0;
    for (int i = sp + 1; i <= sp + 3; i++) {
      if (head[i] < '0' || head[i] > '9') {
        return -1;
      }
      s = s * 10 + head[i] - '0';
    }
    return s;
  }

  /** The Content-Length header's value (case-insensitive name, at a line's start); -1 if absent. */
  private long contentLength() {
    for (int line = 0; line < headLength; ) {
      if (startsWithIgnoreCase(line)) {
        int i = line + CONTENT_LENGTH.length;
        while (i < headLength && head[i] == ' ') {
          i++;
        }
        long v = 0;
        int digits = 0;
        while (i < headLength && head[i] >= '0' && head[i] <= '9' && digits < 18) {
          v = v * 10 + head[i++] - '0';
          digits++;
        }
        return digits == 0 ? -1 : v;
      }
      while (line < headLength && head[line] != '\n') {
        line++;
      }
      line++;
    }
    return -1;
  }

  private boolean startsWithIgnoreCase(int at) {
    if (at + CONTENT_LENGTH.length > headLength) {
      return false;
    }
    for (int k = 0; k < CONTENT_LENGTH.length; k++) {
      byte b = head[at + k];
      if (b >= 'A' && b <= 'Z') {
        b = (byte) (b + 32);
      }
      if (b != CONTENT_LENGTH[k]) {
        return false;
      }
    }
    return true;
  }

  @Override
  void reset() {
    headLength = 0;
    bodyLeft = -1;
    complete = false;
    error = null;
  }

  @Override
  ErrorKind cutShort() {
    return bodyLeft >= 0 ? ErrorKind.SHORT_BODY : ErrorKind.CLOSED;
  }
}
