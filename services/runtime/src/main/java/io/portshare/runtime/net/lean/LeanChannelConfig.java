package io.portshare.runtime.net.lean;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelConfig;
import java.io.IOException;

/**
 * What the lean listener's and connection's configurations share: Netty's epoll configuration with
 * every generic setter narrowed to the configuration's own type {@code C}, and the socket options
 * both have (SO_REUSEADDR, SO_RCVBUF), written once. Netty's
 * {@code SocketChannelConfig} and {@code ServerSocketChannelConfig} each narrow these setters to
 * themselves, so a configuration implementing one must return a type that is both; javac bridges
 * the interface's signature to the method inherited here.
 */
abstract class LeanChannelConfig<C extends LeanChannelConfig<C>> extends EpollChannelConfig {

  LeanChannelConfig(Channel channel, RecvByteBufAllocator reads) {
    super(channel, reads);
  }

  @SuppressWarnings("unchecked")
  private C self() {
    return (C) this;
  }

  /** Runs a socket call, as Netty's configurations do: a failure is a {@link ChannelException}. */
  interface SocketCall<T> {
    T call() throws IOException;
  }

  static <T> T socketCall(SocketCall<T> call) {
    try {
      return call.call();
    } catch (IOException e) {
      throw new ChannelException(e);
    }
  }

  /** A socket call whose answer nothing reads: a setter's. */
  interface SocketSet {
    void call() throws IOException;
  }

  static void socketSet(SocketSet call) {
    try {
      call.call();
    } catch (IOException e) {
      throw new ChannelException(e);
    }
  }

  @Override
  public C setConnectTimeoutMillis(int connectTimeoutMillis) {
    super.setConnectTimeoutMillis(connectTimeoutMillis);
    return self();
  }

  @Override
  @Deprecated
  public C setMaxMessagesPerRead(int maxMessagesPerRead) {
    super.setMaxMessagesPerRead(maxMessagesPerRead);
    return self();
  }

  @Override
  public C setWriteSpinCount(int writeSpinCount) {
    super.setWriteSpinCount(writeSpinCount);
    return self();
  }

  @Override
  public C setAllocator(ByteBufAllocator allocator) {
    super.setAllocator(allocator);
    return self();
  }

  @Override
  public C setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
    super.setRecvByteBufAllocator(allocator);
    return self();
  }

  @Override
  public C setAutoRead(boolean autoRead) {
    super.setAutoRead(autoRead);
    return self();
  }

  @Override
  public C setAutoClose(boolean autoClose) {
    super.setAutoClose(autoClose);
    return self();
  }

  @Override
  @Deprecated
  public C setWriteBufferHighWaterMark(int writeBufferHighWaterMark) {
    super.setWriteBufferHighWaterMark(writeBufferHighWaterMark);
    return self();
  }

  @Override
  @Deprecated
  public C setWriteBufferLowWaterMark(int writeBufferLowWaterMark) {
    super.setWriteBufferLowWaterMark(writeBufferLowWaterMark);
    return self();
  }

  @Override
  public C setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
    super.setWriteBufferWaterMark(writeBufferWaterMark);
    return self();
  }

  @Override
  public C setMessageSizeEstimator(MessageSizeEstimator estimator) {
    super.setMessageSizeEstimator(estimator);
    return self();
  }

  /** As Netty's socket configurations: performance preferences are a Java socket's, not one of epoll's. */
  public C setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
    return self();
  }

  // SO_REUSEADDR and SO_RCVBUF mean the same on a listener and on a connection.

  public boolean isReuseAddress() {
    return socketCall(() -> socket().isReuseAddress());
  }

  public C setReuseAddress(boolean reuseAddress) {
    socketSet(() -> socket().setReuseAddress(reuseAddress));
    return self();
  }

  public int getReceiveBufferSize() {
    return socketCall(() -> socket().getReceiveBufferSize());
  }

  public C setReceiveBufferSize(int receiveBufferSize) {
    socketSet(() -> socket().setReceiveBufferSize(receiveBufferSize));
    return self();
  }
}
