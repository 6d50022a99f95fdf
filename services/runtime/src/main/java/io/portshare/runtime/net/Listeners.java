package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.unix.UnixChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening sockets of one service, every mode and every Vert.x: the one place the runtime
 * finds them (the transport adds each as it is bound), for pinned mode's steering program and for
 * the drain, which closes them:
 * all of them first, before any server's own shutdown, and each only once its accept queue is
 * empty.
 *
 * <p>Why first: Vert.x's shutdown takes the server's handler away and closes the socket after, and
 * a connection accepted in between is closed unanswered (one reset in ~20,000 one-shot RPC
 * connections during a rolling restart, even with tcp_migrate_req=1). Closed first, every
 * connection already accepted has its registration queued on its event loop ahead of the drain
 * posted afterwards, so the drain finds it and lets it finish.
 *
 * <p>Why wait for the accept queue: closing a listener resets the connections that wait in it
 * (unless tcp_migrate_req=1 hands them to a sibling listener), although their clients have
 * connected and may have sent a request. An event loop that accepts for itself takes its queue
 * between turns over its connections, and a cold loop's turns are slow: a SIGTERM 0.5 s after
 * ready on a fresh process found connections still queued. So the drain waits, as long as the
 * drain timeout allows, until the queue is empty; a fixed two seconds from the signal was not
 * enough for a cold loop on a busy machine, and the rest were reset. The queue length is the
 * listener's TCP_INFO (tcpi_unacked), read through libc, which is loaded on the stopping thread
 * rather than on the event loops (loading JNA cold is slow, and the loop accepts meanwhile);
 * where it cannot be read (NIO transport, not Linux) the listener closes at once.
 *
 * <p>An inherited listening socket ({@link InheritedListener}) is drained the same way, then taken
 * off its event loop before this process closes its descriptor (another process holds the same
 * socket, and epoll would otherwise keep watching it). Its holder (systemd, the supervisor) keeps
 * the socket itself open for a successor, which finds what queued meanwhile; when the holder has
 * let go of it (the supervisor's own stop), this process is the last to hold it, and waiting for
 * its queue to empty is what keeps the connections queued there from being reset.
 */
public final class Listeners {

  /** Kernel caps this at net.core.somaxconn; one-connection-per-request load needs a deep queue. */
  public static final int ACCEPT_BACKLOG = 4096;
  private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);
  private static final int IPPROTO_TCP = 6;
  private static final int TCP_INFO = 11;
  /** struct tcp_info: eight one-byte fields, then u32 rto, ato, snd_mss, rcv_mss, unacked. */
  private static final int TCPI_UNACKED_OFFSET = 24;
  private static final int TCP_INFO_READ = 32;

  private final ChannelGroup group = new DefaultChannelGroup("listeners", GlobalEventExecutor.INSTANCE);

  /** Called for each listening socket as it is created; closed ones leave by themselves. */
  void add(Channel listener) {
    group.add(listener);
  }

  /** True while no listening socket was ever added, or all have left. */
  public boolean isEmpty() {
    return group.isEmpty();
  }

  /** The descriptors of this service's open native (epoll, io_uring) listeners on {@code port}; none under NIO. */
  List<Integer> fds(int port) {
    List<Integer> fds = new ArrayList<>();
    for (Channel listener : group) {
      if (listener instanceof UnixChannel && listener.isOpen()
          && listener.localAddress() instanceof InetSocketAddress
          && ((InetSocketAddress) listener.localAddress()).getPort() == port) {
        fds.add(((UnixChannel) listener).fd().intValue());
      }
    }
    return fds;
  }

  /**
   * Closes every listening socket, each as soon as nothing waits in its accept queue, or when
   * {@code queueWait} has passed; blocks until all are closed.
   */
  public void closeAll(Duration queueWait) {
    long deadline = System.nanoTime() + queueWait.toNanos();
    // Loaded here, on the stopping thread: loading JNA cold takes a while, and the loops accept meanwhile.
    boolean canRead = canReadQueues();
    List<ChannelFuture> closed = new ArrayList<>();
    for (Channel listener : group) {
      closed.add(listener.closeFuture());
      listener.eventLoop().execute(() -> closeWhenQueueEmpty(listener, canRead, deadline));
    }
    long waitMillis = queueWait.toMillis() + 5000;
    for (ChannelFuture f : closed) {
      if (!f.awaitUninterruptibly(waitMillis)) {
        LOG.warn("a listening socket did not stop accepting in {} ms; draining anyway", waitMillis);
        return;
      }
    }
  }

  /** On the listener's event loop, so that between two checks the loop accepts what waits. */
  private static void closeWhenQueueEmpty(Channel listener, boolean canRead, long deadline) {
    int waiting = canRead ? waiting(listener) : 0;
    if (waiting > 0 && System.nanoTime() < deadline) {
      listener.eventLoop().schedule(() -> closeWhenQueueEmpty(listener, canRead, deadline), 1, TimeUnit.MILLISECONDS);
      return;
    }
    if (waiting > 0) {
      LOG.warn("closing a listening socket with {} connections still waiting to be accepted", waiting);
    }
    if (InheritedListener.is(listener)) {
      listener.deregister().addListener(f -> listener.close());
    } else {
      listener.close();
    }
  }

  /** Loads libc, which reads the accept queues; false where it cannot be loaded. */
  private static boolean canReadQueues() {
    try {
      LinuxLibC.load();
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  /** Connections waiting in the listener's accept queue; 0 when that cannot be told. */
  static int waiting(Channel listener) {
    // Epoll and io_uring listeners both have their socket's fd; NIO's is out of reach.
    if (!(listener instanceof UnixChannel) || !listener.isOpen()) {
      return 0;
    }
    LinuxLibC libc;
    try {
      libc = LinuxLibC.load();
    } catch (UnsupportedOperationException e) {
      return 0;
    }
    int fd = ((UnixChannel) listener).fd().intValue();
    try (Memory info = new Memory(TCP_INFO_READ); Memory length = new Memory(4)) {
      info.clear();
      length.setInt(0, TCP_INFO_READ);
      libc.getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, length);
      return length.getInt(0) >= TCPI_UNACKED_OFFSET + 4 ? info.getInt(TCPI_UNACKED_OFFSET) : 0;
    } catch (LastErrorException e) {
      return 0;
    }
  }
}
