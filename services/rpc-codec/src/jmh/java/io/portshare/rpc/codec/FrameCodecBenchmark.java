package io.portshare.rpc.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The codec per frame: decoding a read of {@link #FRAMES} whole frames in place, the same frames cut
 * in the middle of one (the part that is copied), and encoding a frame into a buffer. Every figure
 * is per frame; {@code -prof gc}'s gc.alloc.rate.norm is the bytes allocated per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameCodecBenchmark implements FrameDecoder.FrameHandler {

  /** Frames per read, as a pipelining client sends them. */
  static final int FRAMES = 16;

  @Param({"64", "1024", "16384"})
  int payload;

  private ByteBuf read;
  private ByteBuf firstHalf;
  private ByteBuf secondHalf;
  private ByteBuf payloadBuf;
  private ByteBuf out;
  private FrameDecoder decoder;
  private Blackhole hole;

  @Setup(Level.Trial)
  public void setUp(Blackhole hole) {
    this.hole = hole;
    PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    payloadBuf = alloc.directBuffer(payload).writeZero(payload);
    read = alloc.directBuffer(FRAMES * (RpcFrame.HEADER_LENGTH + payload));
    for (int i = 0; i < FRAMES; i++) {
      FrameEncoder.writeFrame(read, payloadBuf);
    }
    // Cut in the middle of the middle frame: the decoder keeps and completes one frame per pair of reads.
    int cut = read.readableBytes() / 2 + (RpcFrame.HEADER_LENGTH + payload) / 2;
    firstHalf = read.retainedSlice(0, cut);
    secondHalf = read.retainedSlice(cut, read.readableBytes() - cut);
    out = alloc.directBuffer(RpcFrame.HEADER_LENGTH + payload);
    decoder = new FrameDecoder(RpcFrame.DEFAULT_MAX_PAYLOAD);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    decoder.release();
    firstHalf.release();
    secondHalf.release();
    read.release();
    payloadBuf.release();
    out.release();
  }

  @Override
  public void onFrame(ByteBuf buf, int frameIndex, int payloadLength) {
    hole.consume(frameIndex);
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public boolean decodeWholeFrames() {
    read.readerIndex(0);
    return decoder.decode(read, this);
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public boolean decodeWithOneFrameCut() {
    firstHalf.readerIndex(0);
    secondHalf.readerIndex(0);
    return decoder.decode(firstHalf, this) & decoder.decode(secondHalf, this);
  }

  @Benchmark
  public ByteBuf encodeFrame() {
    out.clear();
    return FrameEncoder.writeFrame(out, payloadBuf);
  }
}
