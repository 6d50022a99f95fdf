package io.portshare.web.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The entries of one {@link FileCache} whose files it keeps open, never more than its limit. It holds
 * one reference to each such entry's {@link CachedFile#open}, and when it gives that back it clears the
 * field too: an entry answered after it was forgotten (a lookup on a worker that outlived its
 * eviction, an answer after {@link #close}) then opens its file per answer instead of lending a
 * descriptor that may already be closed.
 */
final class HeldFiles {

  private int max;
  private final Set<CachedFile> held = Collections.newSetFromMap(new IdentityHashMap<>());

  HeldFiles(int max) {
    this.max = max;
  }

  /** Holds an entry's open descriptor, or, past the limit, closes it (then its answers open the file). */
  void hold(CachedFile f) {
    if (f == null || f.open == null || held.contains(f)) {
      return;
    }
    if (held.size() < max) {
      held.add(f);
    } else {
      f.open.release();
      f.open = null;
    }
  }

  /** Gives back the descriptor {@code f} holds, unless {@code kept} (the entry replacing it) still answers with it. */
  void let(CachedFile f, CachedFile kept) {
    if (f == null || f == kept || (kept != null && kept.gzip == f)) {
      return;
    }
    if (held.remove(f)) {
      f.open.release();
      f.open = null;
    }
  }

  /**
   * Gives back every descriptor held and holds none from now on (an answer still being sent from one
   * closes it when done).
   */
  void close() {
    for (CachedFile f : held) {
      f.open.release();
      f.open = null;
    }
    held.clear();
    max = 0;
  }

  /** How many descriptors are held. */
  int size() {
    return held.size();
  }
}
