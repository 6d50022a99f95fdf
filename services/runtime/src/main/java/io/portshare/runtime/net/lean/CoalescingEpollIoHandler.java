package io.portshare.runtime.net.lean;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty's epoll {@link IoHandler}, with each channel's interest changes applied to epoll once per
 * turn of the event loop, just before it waits, rather than one epoll_ctl(2) per change.
 *
 * <p>An accepted channel sets its interest twice as it starts: Netty's channel hands epoll its
 * first interest ({@code EPOLLRDHUP}) as soon as it is registered, which adds the descriptor
 * ({@code EPOLL_CTL_ADD}: Netty's handler adds a descriptor on its first change of interest), and
 * adds {@code EPOLLIN} when its first read is asked for ({@code EPOLL_CTL_MOD}), both in the same
 * turn. Only the last interest matters, and only when the loop next waits: epoll reports what is
 * ready at that moment, whatever arrived before the interest was set (an added or modified entry is
 * checked against the socket's state at once). So the changes of one turn wait in a list and the
 * loop hands each channel's last one to epoll before {@code epoll_wait}: an accepted connection is
 * added with its final interest in one {@code EPOLL_CTL_ADD}, as a C server adds it.
 *
 * <p>A cancel is applied at once, so the descriptor's number is free in Netty's table before it can
 * come back from accept(2); a change asked for from another thread (Netty's channels ask on their
 * own loop) is applied at once too.
 */
final class CoalescingEpollIoHandler implements IoHandler {

  private static final Logger LOG = LoggerFactory.getLogger(CoalescingEpollIoHandler.class);

  /** The handlers {@code epoll} makes, each wrapped. */
  static IoHandlerFactory factory(IoHandlerFactory epoll) {
    return new IoHandlerFactory() {
      @Override
      public IoHandler newHandler(ThreadAwareExecutor executor) {
        return new CoalescingEpollIoHandler(epoll.newHandler(executor), executor);
      }

      @Override
      public boolean isChangingThreadSupported() {
        return epoll.isChangingThreadSupported();
      }
    };
  }

  private final IoHandler epoll;
  private final ThreadAwareExecutor executor;
  /** Registrations with an interest change not yet given to epoll; touched on the loop's thread only. */
  private final ArrayList<Registration> changed = new ArrayList<>();

  CoalescingEpollIoHandler(IoHandler epoll, ThreadAwareExecutor executor) {
    this.epoll = epoll;
    this.executor = executor;
  }

  @Override
  public void initialize() {
    epoll.initialize();
  }

  @Override
  public int run(IoHandlerContext context) {
    applyChanges();
    return epoll.run(context);
  }

  @Override
  public void prepareToDestroy() {
    applyChanges();
    epoll.prepareToDestroy();
  }

  @Override
  public void destroy() {
    epoll.destroy();
  }

  @Override
  public IoRegistration register(IoHandle handle) throws Exception {
    return new Registration(handle, epoll.register(handle));
  }

  @Override
  public void wakeup() {
    epoll.wakeup();
  }

  @Override
  public boolean isCompatible(Class<? extends IoHandle> handleType) {
    return epoll.isCompatible(handleType);
  }

  private void applyChanges() {
    if (changed.isEmpty()) {
      return;
    }
    // By index, to the end as it is then: a channel closed here may change another's interest.
    for (int i = 0; i < changed.size(); i++) {
      changed.get(i).apply();
    }
    changed.clear();
  }

  /** One channel's registration: Netty's, with its interest changes held until the loop waits. */
  private final class Registration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<Registration> CANCELED =
        AtomicIntegerFieldUpdater.newUpdater(Registration.class, "canceled");

    private final IoHandle handle;
    private final IoRegistration registration;
    /** The interest to hand to epoll at the loop's next wait; null when none waits. */
    private IoOps wanted;
    private volatile int canceled;

    Registration(IoHandle handle, IoRegistration registration) {
      this.handle = handle;
      this.registration = registration;
    }

    @Override
    public <T> T attachment() {
      return registration.attachment();
    }

    @Override
    public long submit(IoOps ops) {
      if (canceled != 0) {
        return -1;
      }
      if (!executor.isExecutorThread(Thread.currentThread())) {
        return registration.submit(ops);
      }
      if (wanted == null) {
        changed.add(this);
      }
      wanted = ops;
      // What Netty's registration answers for a change it made: the epoll interest bits.
      return ((EpollIoOps) ops).value();
    }

    /** On the loop, before it waits. */
    void apply() {
      IoOps ops = wanted;
      wanted = null;
      if (ops == null || canceled != 0) {
        return;
      }
      try {
        registration.submit(ops);
      } catch (UncheckedIOException e) {
        // What Netty's channel does when a change of interest fails: the channel is closed.
        LOG.debug("epoll refused a change of interest; closing the channel", e);
        try {
          handle.close();
        } catch (Exception closing) {
          LOG.debug("closing the channel failed", closing);
        }
      }
    }

    @Override
    public boolean isValid() {
      return canceled == 0 && registration.isValid();
    }

    @Override
    public boolean cancel() {
      if (!CANCELED.compareAndSet(this, 0, 1)) {
        return false;
      }
      return registration.cancel();
    }
  }
}
