package io.portshare.kit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A block of consecutive ports free now, for a command under test that numbers its servers from one
 * base port (PORT, PORT+1, …) and so cannot take port 0. Blocks are drawn at random below the
 * ephemeral range (which starts at 32768 by default), so two builds on one machine, or the clients
 * of this one, rarely want the same block; a block is taken only if every port in it binds on the
 * wildcard address at the moment of the check.
 */
public final class FreePorts {

  private static final int LOWEST = 20_000;
  private static final int HIGHEST = 32_000;

  private FreePorts() {
  }

  /** The first port of {@code size} consecutive free ports. */
  public static int block(int size) {
    if (size < 1 || size > 2_000) {
      throw new IllegalArgumentException("size: " + size + " (expected 1..2000)");
    }
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST - size);
      if (allFree(base, size)) {
        return base;
      }
    }
    throw new IllegalStateException("no " + size + " consecutive free ports between " + LOWEST + " and " + HIGHEST);
  }

  private static boolean allFree(int base, int size) {
    for (int port = base; port < base + size; port++) {
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(false);
        s.bind(new InetSocketAddress((InetAddress) null, port));
      } catch (IOException taken) {
        return false;
      }
    }
    return true;
  }
}
