import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.*;
import io.netty.channel.epoll.*;
import io.netty.handler.codec.http.*;
import io.netty.util.ReferenceCountUtil;
import java.nio.file.*;

/** Floor of the JVM close path: plain Netty epoll, no Vert.x. Args: PORT FILE decoder|scan */
public class RawNetty {
  public static void main(String[] a) throws Exception {
    int port = Integer.parseInt(a[0]);
    byte[] body = Files.readAllBytes(Path.of(a[1]));
    boolean decoder = a[2].equals("decoder");
    String headS = "HTTP/1.1 200 OK\r\nServer: raw\r\nDate: Tue, 01 Dec 2026 10:00:00 GMT\r\nContent-Type: application/octet-stream\r\nContent-Length: " + body.length + "\r\n";
    ByteBuf keepHead = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes((headS + "\r\n").getBytes()));
    ByteBuf closeHead = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes((headS + "Connection: close\r\n\r\n").getBytes()));
    ByteBuf bodyBuf = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(body));
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    ServerBootstrap b = new ServerBootstrap().group(group, group).channel(EpollServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 4096).option(EpollChannelOption.SO_REUSEPORT, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override protected void initChannel(Channel ch) {
            if (decoder) ch.pipeline().addLast(new HttpRequestDecoder());
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
              @Override public void channelRead(ChannelHandlerContext ctx, Object msg) {
                boolean keep;
                if (decoder) {
                  if (!(msg instanceof HttpRequest)) { ReferenceCountUtil.release(msg); return; }
                  keep = HttpUtil.isKeepAlive((HttpRequest) msg);
                } else {
                  ByteBuf in = (ByteBuf) msg;
                  keep = in.toString(io.netty.util.CharsetUtil.US_ASCII).indexOf("onnection: close") < 0;
                }
                ReferenceCountUtil.release(msg);
                ctx.write((keep ? keepHead : closeHead).duplicate());
                if (keep) ctx.writeAndFlush(bodyBuf.duplicate());
                else ctx.writeAndFlush(bodyBuf.duplicate()).addListener(ChannelFutureListener.CLOSE);
              }
            });
          }
        });
    b.bind(port).sync(); b.bind(port).sync().channel().closeFuture().sync();
  }
}
