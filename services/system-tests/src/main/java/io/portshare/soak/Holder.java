package io.portshare.soak;

import io.portshare.kit.HttpWire;

import io.portshare.kit.RpcWire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A client process that holds many connections open, for more connections than one process may
 * have descriptors: opens COUNT connections from SOURCE to PORT, one transaction on each (an RPC
 * echo, or an HTTP keep-alive GET of PATH), prints "held OK FAILED"; on each line read from stdin
 * does one more transaction on every connection and prints "checked OK FAILED"; at end of stdin
 * closes them all and exits.
 *
 * <pre>java -cp portshare-soak.jar io.portshare.soak.Holder PORT SOURCE COUNT [rpc | http PATH]</pre>
 */
public final class Holder {

  private static final byte[] FRAME = RpcWire.frame(64, 3);

  /** One held connection of either protocol. */
  private interface Held extends AutoCloseable {
    void transact() throws IOException;

    @Override
    void close();
  }

  private Holder() {}

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    InetAddress source = InetAddress.getByName(args[1]);
    int count = Integer.parseInt(args[2]);
    boolean http = args.length > 3 && args[3].equals("http");
    String path = http ? args[4] : null;
    List<Held> held = new ArrayList<>(count);
    long failed = 0;
    for (int i = 0; i < count; i++) {
      Held h = null;
      try {
        h = http ? http(new HttpWire(source, port), path) : rpc(new RpcWire(source, port, true));
        h.transact();
        held.add(h);
      } catch (IOException e) {
        if (h != null) {
          h.close();
        }
        if (failed++ == 0) {
          System.err.println("holder: first failure after " + held.size() + " connections: " + e);
        }
      }
    }
    System.out.println("held " + held.size() + " " + failed);
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    while (in.readLine() != null) {
      long ok = 0;
      long bad = 0;
      for (Held h : held) {
        try {
          h.transact();
          ok++;
        } catch (IOException e) {
          bad++;
        }
      }
      System.out.println("checked " + ok + " " + bad);
      System.out.flush();
    }
    held.forEach(Held::close);
  }

  private static Held rpc(RpcWire w) {
    return new Held() {
      @Override
      public void transact() throws IOException {
        w.transact(FRAME);
      }

      @Override
      public void close() {
        w.close();
      }
    };
  }

  /** A keep-alive GET: a 200 with its whole body, and the connection left open. */
  private static Held http(HttpWire w, String path) {
    String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    return new Held() {
      @Override
      public void transact() throws IOException {
        HttpWire.Response r = w.send(request).read(false);
        if (r.status() != 200) {
          throw new IOException("expected 200, got " + r.status());
        }
        if (r.header("content-length") == null) {
          throw new IOException("answer without Content-Length");
        }
        String connection = r.header("connection");
        if (connection != null && connection.toLowerCase(Locale.ROOT).contains("close")) {
          throw new IOException("the server closes a keep-alive connection");
        }
      }

      @Override
      public void close() {
        w.close();
      }
    };
  }
}
