package io.portshare.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A client process that holds many RPC connections open, for more connections than one process
 * may have descriptors: opens COUNT connections from SOURCE to PORT, one transaction on each,
 * prints "held OK FAILED"; on each line read from stdin does one more transaction on every
 * connection and prints "checked OK FAILED"; at end of stdin closes them all and exits.
 *
 * <pre>java -cp portshare-bench.jar io.portshare.soak.Holder PORT SOURCE COUNT</pre>
 */
public final class Holder {

  private static final byte[] FRAME = RpcWire.frame(64, 3);

  private Holder() {}

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    InetAddress source = InetAddress.getByName(args[1]);
    int count = Integer.parseInt(args[2]);
    List<RpcWire> held = new ArrayList<>(count);
    long failed = 0;
    for (int i = 0; i < count; i++) {
      try {
        RpcWire w = new RpcWire(source, port, true);
        w.transact(FRAME);
        held.add(w);
      } catch (IOException e) {
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
      for (RpcWire w : held) {
        try {
          w.transact(FRAME);
          ok++;
        } catch (IOException e) {
          bad++;
        }
      }
      System.out.println("checked " + ok + " " + bad);
      System.out.flush();
    }
    held.forEach(RpcWire::close);
  }
}
