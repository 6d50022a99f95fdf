package io.portshare.web.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** The open files one {@link FileCache} holds a reference to, never more than its limit. */
final class HeldFiles {

  private final int max;
  private final Set<OpenFile> held = Collections.newSetFromMap(new IdentityHashMap<>());

  HeldFiles(int max) {
    this.max = max;
  }

  /** Holds a file's open descriptor, or, past the limit, closes it (then its answers open the file). */
  void hold(CachedFile f) {
    if (f == null || f.open == null || held.contains(f.open)) {
      return;
    }
    if (held.size() < max) {
      held.add(f.open);
    } else {
      f.open.release();
      f.open = null;
    }
  }

  /** Gives back an open file held, unless {@code kept} (the entry replacing its own) still has it. */
  void let(OpenFile open, CachedFile kept) {
    if (open == null || (kept != null && (kept.open == open || (kept.gzip != null && kept.gzip.open == open)))) {
      return;
    }
    if (held.remove(open)) {
      open.release();
    }
  }

  /** Gives back every file held (a region still being sent closes its file when done). */
  void close() {
    for (OpenFile open : held) {
      open.release();
    }
    held.clear();
  }
}
