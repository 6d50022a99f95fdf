package io.portshare.bench.ledger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * The ledger's plain-Netty static row: one epoll event loop, Netty's request decoder and one handler
 * that answers {@code GET /NAME} from the files under ROOT read once at start into direct buffers (as
 * static-server answers files up to 32 KiB from memory), each answer one pre-encoded head and the body.
 * No Vert.x, no header maps, no response encoder: the floor of an HTTP file server on Netty (the
 * lean-http report's RawNetty, as a file server). Args: PORT ROOT.
 */
public final class NettyHttp {

  private NettyHttp() {}

  /** A file's answer: its head (with and without {@code Connection: close}) and its body. */
  record Answer(ByteBuf keepAliveHead, ByteBuf closeHead, ByteBuf body) {}

  @ChannelHandler.Sharable
  static final class FileResponder extends SimpleChannelInboundHandler<HttpObject> {
    private static final ByteBuf NOT_FOUND = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(
        "HTTP/1.1 404 Not Found\r\nServer: netty\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII)));
    private final Map<String, Answer> answers;

    FileResponder(Map<String, Answer> answers) {
      this.answers = answers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
      if (!(msg instanceof HttpRequest req)) {
        return;
      }
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      String uri = req.uri();
      int q = uri.indexOf('?');
      Answer a = answers.get(q < 0 ? uri : uri.substring(0, q));
      if (a == null) {
        ctx.writeAndFlush(NOT_FOUND.duplicate()).addListener(ChannelFutureListener.CLOSE);
        return;
      }
      ctx.write((keepAlive ? a.keepAliveHead() : a.closeHead()).duplicate());
      ChannelFuture done = ctx.writeAndFlush(a.body().duplicate());
      if (!keepAlive) {
        done.addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  static Map<String, Answer> load(Path root) throws IOException {
    Map<String, Answer> out = new HashMap<>();
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    try (var files = Files.list(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] body = Files.readAllBytes(f);
        String name = f.getFileName().toString();
        String head = "HTTP/1.1 200 OK\r\nServer: netty\r\nDate: " + date + "\r\nContent-Type: "
            + (name.endsWith(".html") ? "text/html" : "application/octet-stream") + "\r\nContent-Length: "
            + body.length + "\r\n";
        out.put("/" + name, new Answer(direct(head + "\r\n"), direct(head + "Connection: close\r\n\r\n"),
            Unpooled.unreleasableBuffer(Unpooled.directBuffer(body.length).writeBytes(body))));
      }
    }
    return out;
  }

  private static ByteBuf direct(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return Unpooled.unreleasableBuffer(Unpooled.directBuffer(b.length).writeBytes(b));
  }

  public static void main(String[] args) throws InterruptedException, IOException {
    int port = Integer.parseInt(args[0]);
    FileResponder responder = new FileResponder(load(Path.of(args[1])));
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    Channel listener = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpRequestDecoder(), responder);
          }
        })
        .bind(port).sync().channel();
    System.out.println("netty-http listening on " + listener.localAddress());
    listener.closeFuture().sync();
  }
}
