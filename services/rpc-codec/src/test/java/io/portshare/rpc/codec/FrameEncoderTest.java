package io.portshare.rpc.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** What the encoder writes, the decoder and the stream reader read back the same. */
class FrameEncoderTest {

  private static byte[] payload(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 131 + 1);
    }
    return b;
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {0, 1, 255, 256, 65_536, RpcFrame.DEFAULT_MAX_PAYLOAD})
  void aFrameEncodedIsDecodedAndReadBackToItsPayload(int size) throws IOException {
    byte[] payload = payload(size);
    byte[] frame = FrameEncoder.frame(payload);
    ByteBuf written = FrameEncoder.writeFrame(Unpooled.buffer(), Unpooled.wrappedBuffer(payload));
    assertThat(ByteBufUtil.getBytes(written)).isEqualTo(frame);

    List<byte[]> decoded = new ArrayList<>();
    FrameDecoder decoder = new FrameDecoder(RpcFrame.DEFAULT_MAX_PAYLOAD);
    assertThat(decoder.decode(written, (buf, index, length) ->
        decoded.add(ByteBufUtil.getBytes(buf, index + RpcFrame.HEADER_LENGTH, length)))).isTrue();
    assertThat(decoded).containsExactly(payload);

    DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame));
    assertThat(FrameReader.readPayload(in, RpcFrame.DEFAULT_MAX_PAYLOAD)).isEqualTo(payload);
    assertThat(in.read()).isEqualTo(-1);
  }

  @Test
  void theHeaderIsTheLengthBigEndian() {
    assertThat(HexFormat.of().formatHex(FrameEncoder.frame(new byte[] {1, 2, 3}))).isEqualTo("00000003010203");
    assertThat(ByteBufUtil.hexDump(FrameEncoder.writeHeader(Unpooled.buffer(), 0x01020304))).isEqualTo("01020304");
    assertThatThrownBy(() -> FrameEncoder.writeHeader(Unpooled.buffer(), -1)).hasMessage("payload length -1 below 0");
  }

  @Test
  void theStreamReaderRefusesALengthAboveTheMaximumInOneLineAndAShortFrame() {
    byte[] huge = HexFormat.of().parseHex("80000000");
    assertThatThrownBy(() -> FrameReader.readPayload(new DataInputStream(new ByteArrayInputStream(huge)), 16))
        .isInstanceOf(IOException.class).hasMessage("frame length 2147483648 above the max payload 16");
    byte[] cut = HexFormat.of().parseHex("00000003aabb");
    assertThatThrownBy(() -> FrameReader.readPayload(new DataInputStream(new ByteArrayInputStream(cut)), 16))
        .isInstanceOf(EOFException.class);
  }
}
