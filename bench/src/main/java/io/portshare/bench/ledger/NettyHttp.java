package io.portshare.bench.ledger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
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
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The ledger's plain-Netty static row: one epoll event loop, Netty's request decoder and one handler
 * that answers {@code GET /NAME} with a head written in one buffer and the file by sendfile(2)
 * ({@link DefaultFileRegion}), opening the file per request as nginx does. No Vert.x, no header maps,
 * no response encoder: the floor of an HTTP file server on Netty. Args: PORT ROOT.
 */
public final class NettyHttp {

  private NettyHttp() {}

  static final class FileResponder extends SimpleChannelInboundHandler<HttpObject> {
    private static final byte[] NOT_FOUND =
        "HTTP/1.1 404 Not Found\r\nServer: netty\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private final Path root;
    private long dateSecond;
    private String date;

    FileResponder(Path root) {
      this.root = root;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) throws IOException {
      if (!(msg instanceof HttpRequest req)) {
        return;
      }
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      String uri = req.uri();
      int q = uri.indexOf('?');
      String name = (q < 0 ? uri : uri.substring(0, q)).substring(1);
      Path file = root.resolve(name).normalize();
      if (name.isEmpty() || !file.startsWith(root) || !Files.isRegularFile(file)) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(NOT_FOUND)).addListener(ChannelFutureListener.CLOSE);
        return;
      }
      FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
      long length = ch.size();
      String head = "HTTP/1.1 200 OK\r\nServer: netty\r\nDate: " + date() + "\r\nContent-Type: "
          + (name.endsWith(".html") ? "text/html" : "application/octet-stream") + "\r\nContent-Length: " + length
          + (keepAlive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n");
      ByteBuf h = ctx.alloc().directBuffer(head.length());
      h.writeCharSequence(head, StandardCharsets.US_ASCII);
      ctx.write(h);
      ChannelFuture done = ctx.writeAndFlush(new DefaultFileRegion(ch, 0, length));
      if (!keepAlive) {
        done.addListener(ChannelFutureListener.CLOSE);
      }
    }

    private String date() {
      long s = System.currentTimeMillis() / 1000;
      if (s != dateSecond) {
        dateSecond = s;
        date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
      }
      return date;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int port = Integer.parseInt(args[0]);
    Path root = Path.of(args[1]).toAbsolutePath().normalize();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    Channel listener = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpRequestDecoder(), new FileResponder(root));
          }
        })
        .bind(port).sync().channel();
    System.out.println("netty-http listening on " + listener.localAddress());
    listener.closeFuture().sync();
  }
}
