package io.portshare.runtime.launch;

/**
 * The supervisor's decisions that need no process to be made: when a dead child is started again,
 * and which children a stop stops first. Pure functions of what the supervisor knows, so that each
 * is table-tested on its own ({@code SupervisorPolicyTest}); {@link Supervisor} carries them out.
 */
final class SupervisorPolicy {

  /** A child that lived less than this before dying counts as dying at once. */
  static final long QUICK_DEATH_SECONDS = 2;
  /** Restarts of one slot after which a child dying at once waits before the next. */
  static final int RESTARTS_BEFORE_BACKOFF = 3;
  static final long BACKOFF_SECONDS = 2;

  private SupervisorPolicy() {}

  /**
   * Seconds to wait before starting the slot's child again: 0, unless it died at once for more than
   * {@link #RESTARTS_BEFORE_BACKOFF} restarts, so that a child that cannot start is not restarted in a
   * hot loop.
   *
   * @param restarts the slot's restarts, this one included
   */
  static long restartDelaySeconds(long aliveSeconds, int restarts) {
    return aliveSeconds < QUICK_DEATH_SECONDS && restarts > RESTARTS_BEFORE_BACKOFF ? BACKOFF_SECONDS : 0;
  }

  /**
   * Whether a stop stops this child first: a replacement not yet ready while the child it is to
   * replace still serves its socket. It stops at once (its drain has at most what it accepted while
   * warming up), while the serving child answers; the rest stop after, once the supervisor has let
   * go of its own sockets.
   *
   * @param ready the child reported ready
   * @param retiring the child was told to stop already (a replaced one, draining)
   * @param servingOther another child serves its slot: ready and alive
   */
  static boolean stopsFirst(boolean ready, boolean retiring, boolean servingOther) {
    return !ready && !retiring && servingOther;
  }
}
