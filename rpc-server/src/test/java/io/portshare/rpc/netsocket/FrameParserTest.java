package io.portshare.rpc.netsocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Vert.x engine's frame parser, read by read: a stream is given as the hex of each read, apart
 * by spaces; the answer is what the echo would write, and {@code ranges} how many writes it takes
 * (whole frames next to each other in one read leave as one).
 */
class FrameParserTest {

  private static final HexFormat HEX = HexFormat.of();

  /** What feeding some reads to one parser gave. */
  private record Fed(String answered, int ranges, int frames, boolean accepted, boolean atFrameBoundary) {}

  private static Fed feed(int maxPayload, List<Buffer> reads) {
    FrameParser parser = new FrameParser(maxPayload);
    Buffer answered = Buffer.buffer();
    int[] ranges = {0};
    int frames = 0;
    boolean accepted = true;
    for (Buffer read : reads) {
      accepted = parser.feed(read, (source, from, to) -> {
        answered.appendBuffer(source, from, to - from);
        ranges[0]++;
      });
      frames += parser.framesInLastFeed();
      if (!accepted) {
        break;
      }
    }
    return new Fed(HEX.formatHex(answered.getBytes()), ranges[0], frames, accepted, parser.atFrameBoundary());
  }

  private static List<Buffer> reads(String hexReads) {
    List<Buffer> reads = new ArrayList<>();
    for (String read : hexReads.trim().split(" +")) {
      reads.add(Buffer.buffer(HEX.parseHex(read)));
    }
    return reads;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // case                              | max | reads                          | answered                 | ranges | frames | accepted | boundary
      "one frame in one read               | 16  | 00000002abcd                   | 00000002abcd             | 1 | 1 | true  | true",
      "two frames in one read, one range   | 16  | 00000001aa00000001bb           | 00000001aa00000001bb     | 1 | 2 | true  | true",
      "header split 1+3                    | 16  | 00 000001aa                    | 00000001aa               | 2 | 1 | true  | true",
      "header split 3+1                    | 16  | 000000 01aa                    | 00000001aa               | 2 | 1 | true  | true",
      "header split at every byte          | 16  | 00 00 00 01 aa                 | 00000001aa               | 5 | 1 | true  | true",
      "payload across two reads            | 16  | 00000003aa bbcc                | 00000003aabbcc           | 2 | 1 | true  | true",
      "split frame then a whole one        | 16  | 00000003aa bbcc00000001dd      | 00000003aabbcc00000001dd | 2 | 2 | true  | true",
      "whole frame then half of the next   | 16  | 00000001aa000000               | 00000001aa               | 1 | 1 | true  | false",
      "half a payload, no more             | 16  | 00000003aabb                   | ''                       | 0 | 0 | true  | false",
      "zero-length payload                 | 16  | 00000000                       | 00000000                 | 1 | 1 | true  | true",
      "two zero-length frames              | 16  | 0000000000000000               | 0000000000000000         | 1 | 2 | true  | true",
      "zero-length frame split in header   | 16  | 0000 0000                      | 00000000                 | 2 | 1 | true  | true",
      "payload of exactly max-frame        | 4   | 00000004aabbccdd               | 00000004aabbccdd         | 1 | 1 | true  | true",
      "max-frame, header split             | 4   | 000000 04aabbccdd              | 00000004aabbccdd         | 2 | 1 | true  | true",
      "zero max-frame, empty payload       | 0   | 00000000                       | 00000000                 | 1 | 1 | true  | true",
      "one above max-frame                 | 4   | 00000005aabbccddee             | ''                       | 0 | 0 | false | false",
      "zero max-frame, one byte            | 0   | 00000001aa                     | ''                       | 0 | 0 | false | false",
      "good frame, then oversized          | 4   | 00000001aa00000005             | 00000001aa               | 1 | 1 | false | false",
      "oversized header split across reads | 4   | 00000001aa0000 0005            | 00000001aa               | 1 | 1 | false | false",
      "largest declared length             | 16  | ffffffff                       | ''                       | 0 | 0 | false | false",
      "sign bit set                        | 16  | 80000000                       | ''                       | 0 | 0 | false | false",
      "bytes after an oversized header     | 4   | 00000009 aabbcc                | ''                       | 0 | 0 | false | false",
  })
  void answersWholeFramesInOrder(String name, int max, String reads, String answered, int ranges, int frames,
      boolean accepted, boolean boundary) {
    assertThat(feed(max, reads(reads))).isEqualTo(new Fed(answered, ranges, frames, accepted, boundary));
  }

  @Test
  void wholeFramesAreAnsweredFromTheReadBufferItself() {
    Buffer read = Buffer.buffer(HEX.parseHex("00000001aa00000002bbcc"));
    List<Buffer> sources = new ArrayList<>();
    new FrameParser(16).feed(read, (source, from, to) -> sources.add(source));
    assertThat(sources).singleElement().isSameAs(read);
  }

  @Test
  void aFrameTrickledInManyReadsIsCopiedOnceItHasTooManyPiecesAndStillAnsweredWhole() {
    int payload = 3 * FrameParser.MAX_PIECES;
    StringBuilder frame = new StringBuilder(String.format("%08x", payload));
    StringBuilder trickle = new StringBuilder(frame).append(' ');
    for (int i = 0; i < payload; i++) {
      String b = String.format("%02x", i);
      frame.append(b);
      trickle.append(b).append(' ');
    }
    // One read per payload byte, then a whole frame right after the last one.
    String next = "00000001ff";
    Fed fed = feed(payload, reads(trickle.toString().trim() + next));
    assertThat(fed.answered()).isEqualTo(frame + next);
    assertThat(fed.frames()).isEqualTo(2);
    // Sixteen pieces by reference, then one buffer they were copied into, then the last read's run.
    assertThat(fed.ranges()).isEqualTo(2);
    assertThat(fed.atFrameBoundary()).isTrue();
  }
}
