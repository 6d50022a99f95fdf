package io.portshare.runtime.impl;

import io.portshare.runtime.StartException;
import io.portshare.runtime.net.FileLimit;

/**
 * The file descriptors a start needs before it makes anything: each instance needs at least an epoll,
 * an eventfd, a timerfd and a listening socket. Short of those, say so at once: further in, Vert.x
 * and Netty meet the limit in places that log stack traces (the hosts file, a bind's promise) before
 * any clear error could be given.
 */
final class DescriptorBudget {

  /** The fewest descriptors an instance takes to start: an epoll, an eventfd, a timerfd, a listener. */
  private static final int DESCRIPTORS_PER_INSTANCE = 4;

  private DescriptorBudget() {}

  /** Fails with one line unless the open files limit leaves room for {@code instances} of {@code service}. */
  static void check(String service, int instances) {
    if (!FileLimit.fits(instances * DESCRIPTORS_PER_INSTANCE)) {
      throw new StartException("cannot start " + service + ": out of file descriptors (open files limit "
          + FileLimit.describe() + "); raise the limit (ulimit -n) or lower --instances", null);
    }
  }
}
