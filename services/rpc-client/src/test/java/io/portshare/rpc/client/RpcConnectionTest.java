package io.portshare.rpc.client;

import io.portshare.rpc.codec.RpcFrame;

import static io.portshare.rpc.client.Peer.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The client against real sockets: how it frames, how much it keeps in flight, and how it fails. */
@ExtendWith(VertxExtension.class)
class RpcConnectionTest {

  private static RpcConnection connect(Vertx vertx, Peer peer, RpcClientOptions options) throws Exception {
    return get(RpcClient.create(vertx, options).connect(peer.port(), "127.0.0.1"));
  }

  private static Throwable failure(Future<?> f) {
    return assertThatThrownBy(() -> get(f)).isInstanceOf(ExecutionException.class).actual().getCause();
  }

  // --- framing ---

  @Test
  void framesEachPayloadWithItsBigEndianLength() {
    Buffer frame = Frames.encode(Buffer.buffer(new byte[] {1, 2, 3}));
    assertThat(frame.getBytes()).containsExactly(0, 0, 0, 3, 1, 2, 3);
    assertThat(Frames.encode(Buffer.buffer()).getBytes()).containsExactly(0, 0, 0, 0);
    assertThat(Frames.encodePattern(300).getInt(0)).isEqualTo(300);
  }

  @Test
  void roundTripsEmptySmallAndLargePayloads(Vertx vertx) throws Exception {
    RpcConnection conn = connect(vertx, Peer.echo(vertx), new RpcClientOptions());
    for (int size : new int[] {0, 1, 64, 1024, 1 << 20}) {
      get(conn.send(Frames.pattern(size)));
    }
    assertThat(conn.answered()).isEqualTo(5);
    assertThat(conn.pending()).isZero();
  }

  @Test
  void reassemblesAnswersThatArriveOneByteAtATime(Vertx vertx) throws Exception {
    // Each byte in its own write, a millisecond apart: headers and payloads split everywhere.
    Peer peer = Peer.start(vertx, so -> new Dribble(vertx, so));
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setPipelineDepth(4));
    List<Future<Void>> answers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      answers.add(conn.send(Frames.pattern(7 + i)));
    }
    get(Future.all(answers));
    assertThat(conn.answered()).isEqualTo(4);
  }

  /**
   * Echoes one byte per write, in the order the bytes came: what arrives while earlier bytes are
   * still going out waits behind them (the requests may arrive in more than one read).
   */
  private static final class Dribble {
    private final Vertx vertx;
    private final NetSocket so;
    private final ArrayDeque<Byte> queued = new ArrayDeque<>();
    private boolean going;

    Dribble(Vertx vertx, NetSocket so) {
      this.vertx = vertx;
      this.so = so;
      so.handler(this::received);
    }

    private void received(Buffer data) {
      for (byte b : data.getBytes()) {
        queued.add(b);
      }
      if (!going) {
        going = true;
        next();
      }
    }

    private void next() {
      Byte b = queued.poll();
      if (b == null) {
        going = false;
        return;
      }
      so.write(Buffer.buffer(new byte[] {b}));
      vertx.setTimer(1, t -> next());
    }
  }

  @Test
  void takesManyAnswersFromOneRead(Vertx vertx) throws Exception {
    // The peer answers only once all ten frames are in, with one write holding all ten.
    int frames = 10;
    int frameLength = RpcFrame.HEADER_LENGTH + 64;
    Peer peer = Peer.start(vertx, so -> {
      Buffer all = Buffer.buffer();
      so.handler(data -> {
        all.appendBuffer(data);
        if (all.length() == frames * frameLength) {
          so.write(all);
        }
      });
    });
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setPipelineDepth(frames));
    List<Future<Void>> answers = new ArrayList<>();
    for (int i = 0; i < frames; i++) {
      answers.add(conn.send(Frames.pattern(64)));
    }
    get(Future.all(answers));
    assertThat(conn.answered()).isEqualTo(frames);
  }

  // --- pipelining ---

  @Test
  void keepsAtMostThePipelineDepthInFlightAndCompletesInOrder(Vertx vertx) throws Exception {
    int depth = 3;
    int frameLength = RpcFrame.HEADER_LENGTH + 16;
    AtomicInteger receivedBytes = new AtomicInteger();
    AtomicReference<NetSocket> socket = new AtomicReference<>();
    AtomicReference<Context> context = new AtomicReference<>();
    Buffer held = Buffer.buffer();
    // Holds every answer until told to echo.
    Peer peer = Peer.start(vertx, so -> {
      socket.set(so);
      context.set(Vertx.currentContext());
      so.handler(data -> {
        receivedBytes.addAndGet(data.length());
        held.appendBuffer(data);
      });
    });
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setPipelineDepth(depth));
    List<Integer> completed = new CopyOnWriteArrayList<>();
    List<Future<Void>> answers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      int n = i;
      answers.add(conn.send(Buffer.buffer(new byte[16]).setInt(0, n)).onSuccess(v -> completed.add(n)));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> receivedBytes.get() == depth * frameLength);
    Thread.sleep(300);
    assertThat(receivedBytes.get()).as("bytes on the wire with nothing answered").isEqualTo(depth * frameLength);
    assertThat(conn.pending()).isEqualTo(10);

    context.get().runOnContext(v -> {
      NetSocket so = socket.get();
      so.handler(so::write);
      so.write(held);
    });
    get(Future.all(answers));
    assertThat(completed).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertThat(receivedBytes.get()).isEqualTo(depth * frameLength);
    assertThat(conn.answered()).isEqualTo(10);
  }

  @Test
  void sendsFromManyThreadsAtOnce(Vertx vertx) throws Exception {
    RpcConnection conn = connect(vertx, Peer.echo(vertx), new RpcClientOptions().setPipelineDepth(8));
    ConcurrentLinkedQueue<Future<Void>> answers = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int seed = t;
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 250; i++) {
          answers.add(conn.send(Buffer.buffer(new byte[4 + i % 100]).setInt(0, seed)));
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    get(Future.all(new ArrayList<>(answers)));
    assertThat(conn.answered()).isEqualTo(1000);
  }

  // --- errors ---

  @Test
  void anAnswerWithOtherBytesFailsItsRequestAndEveryOneAfterAndClosesTheConnection(Vertx vertx) throws Exception {
    // The first request is echoed at once. The second and third are held until both have arrived, so
    // both are in flight when the answers come (a third sent after the bad answer was read would fail
    // as sent on a closed connection): the second with its last byte changed, the third intact.
    int frame = RpcFrame.HEADER_LENGTH + 32;
    Peer peer = Peer.start(vertx, so -> {
      Buffer received = Buffer.buffer();
      so.handler(data -> {
        int before = received.length();
        received.appendBuffer(data);
        if (before < frame) {
          so.write(received.slice(before, Math.min(frame, received.length())).copy());
        }
        if (before < 3 * frame && received.length() >= 3 * frame) {
          Buffer answers = received.slice(frame, 3 * frame).copy();
          answers.setByte(frame - 1, (byte) (answers.getByte(frame - 1) ^ 1));
          so.write(answers);
        }
      });
    });
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setPipelineDepth(2));
    AtomicInteger closes = new AtomicInteger();
    conn.closeHandler(v -> closes.incrementAndGet());
    get(conn.send(Frames.pattern(32)));
    Future<Void> second = conn.send(Frames.pattern(32));
    Future<Void> third = conn.send(Frames.pattern(32));

    Throwable e = failure(second);
    assertThat(e).isInstanceOf(EchoMismatchException.class).hasMessageContaining("payload bytes differ");
    assertThat(((EchoMismatchException) e).request()).isEqualTo(1);
    assertThat(failure(third)).isSameAs(e);
    await().atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
    assertThat(failure(conn.send(Frames.pattern(32)))).isInstanceOf(RpcConnection.ClosedException.class);
    assertThat(conn.answered()).isEqualTo(1);
  }

  @Test
  void anAnswerOfAnotherLengthIsAMismatch(Vertx vertx) throws Exception {
    Peer peer = Peer.start(vertx, so -> so.handler(data -> so.write(Frames.encode(Buffer.buffer("short")))));
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions());
    assertThat(failure(conn.send(Frames.pattern(64))))
        .isInstanceOf(EchoMismatchException.class).hasMessageContaining("length 5, sent 64");
  }

  @Test
  void anAnswerLongerThanTheMaximumFailsTheConnectionOnItsHeader(Vertx vertx) throws Exception {
    // Only the header of a 2 KiB answer is sent: the client must not wait for the rest.
    Peer peer = Peer.start(vertx, so -> so.handler(data -> so.write(Buffer.buffer().appendInt(2048))));
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setMaxPayload(1024));
    AtomicInteger closes = new AtomicInteger();
    conn.closeHandler(v -> closes.incrementAndGet());
    assertThat(failure(conn.send(Frames.pattern(8))))
        .isInstanceOf(VertxException.class).hasMessage("answer frame length 2048 above the max payload 1024");
    await().atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
  }

  @Test
  void anAnswerToNoRequestClosesTheConnection(Vertx vertx) throws Exception {
    Peer peer = Peer.start(vertx, so -> so.write(Frames.encode(Buffer.buffer("unasked"))));
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions());
    AtomicInteger closes = new AtomicInteger();
    conn.closeHandler(v -> closes.incrementAndGet());
    await().atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
    assertThat(failure(conn.send(Frames.pattern(8))))
        .isInstanceOf(RpcConnection.ClosedException.class).hasRootCauseMessage("an answer arrived with no request outstanding");
  }

  @Test
  void aCloseHandlerSetAfterTheCloseIsCalledAtOnce(Vertx vertx) throws Exception {
    Peer peer = Peer.start(vertx, so -> so.close());
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions());
    // A request fails once the connection has closed (at once, or when the close arrives).
    assertThat(failure(conn.send(Frames.pattern(8)))).isInstanceOf(RpcConnection.ClosedException.class);
    AtomicInteger closes = new AtomicInteger();
    conn.closeHandler(v -> closes.incrementAndGet());
    await().atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
  }

  @Test
  void aPeerThatClosesFailsWhatIsInFlightAndWhatWaits(Vertx vertx) throws Exception {
    // Closes as soon as the first request is whole, answering nothing.
    Peer peer = Peer.start(vertx, so -> so.handler(data -> so.close()));
    RpcConnection conn = connect(vertx, peer, new RpcClientOptions().setPipelineDepth(1));
    AtomicInteger closes = new AtomicInteger();
    conn.closeHandler(v -> closes.incrementAndGet());
    Future<Void> inFlight = conn.send(Frames.pattern(8));
    Future<Void> waiting = conn.send(Frames.pattern(8));
    assertThat(failure(inFlight)).isInstanceOf(RpcConnection.ClosedException.class);
    assertThat(failure(waiting)).isInstanceOf(RpcConnection.ClosedException.class);
    await().atMost(Duration.ofSeconds(10)).until(() -> closes.get() == 1);
    assertThat(conn.pending()).isZero();
  }

  @Test
  void aRefusedConnectFails(Vertx vertx) throws Exception {
    // A port bound and held but never listened on refuses (RST) and, held, cannot be taken by another
    // process meanwhile: a closed listener's port could be (a build beside this one took it once).
    try (Socket held = new Socket()) {
      held.bind(new InetSocketAddress("127.0.0.1", 0));
      int port = held.getLocalPort();
      assertThatThrownBy(() -> get(RpcClient.create(vertx).connect(port, "127.0.0.1")))
          .rootCause().isInstanceOf(ConnectException.class);
    }
  }
}
