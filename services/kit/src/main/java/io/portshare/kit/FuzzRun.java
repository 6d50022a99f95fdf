package io.portshare.kit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A fuzz run against one server: cases made from a seed, sent by three workers at once and each
 * judged by the protocol's own oracle, while a well-behaved client is served beside them. A
 * protocol brings only its generator, its oracle and its client.
 *
 * <p>{@code -Dfuzz.cases=N} runs N cases (default 2000), {@code -Dfuzz.seed=S} another seed; case i
 * is made from {@code new Random(S * 1000003 + i)}, so a failure names the case that reproduces it.
 */
public final class FuzzRun {

  public static final int CASES = Integer.getInteger("fuzz.cases", 2000);
  public static final long SEED = Long.getLong("fuzz.seed", 20261130L);
  private static final int WORKERS = 3;
  /** A worker stops after this many failures: they are enough to read, and more only repeat them. */
  private static final int FAILURES_PER_WORKER = 5;

  private FuzzRun() {}

  /** Sends a case and judges the answer: null when it is the one the protocol says, else what is wrong. */
  @FunctionalInterface
  public interface Oracle<C> {
    String check(C c, int port, Random random) throws IOException;
  }

  /** A client that uses the server as intended until told to stop, counting what went wrong. */
  @FunctionalInterface
  public interface Client {
    Served serve(int port, BooleanSupplier stopped);
  }

  /** What the well-behaved client did: its exchanges, and how many of them failed. */
  public record Served(long exchanges, long errors) {}

  /** The cases answered otherwise than due (one line each), and what the well-behaved client saw. */
  public record Outcome(List<String> failures, Served served) {}

  /**
   * Runs every case against {@code port}. {@code describe} says what a case is (its kind and how it
   * starts), for the failure lines.
   */
  public static <C> Outcome run(int port, Function<Random, C> generator, Oracle<C> oracle,
      Function<C, String> describe, Client client) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS + 1);
    AtomicBoolean stop = new AtomicBoolean();
    try {
      Future<Served> served = pool.submit(() -> client.serve(port, stop::get));
      List<Future<List<String>>> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        int worker = w;
        workers.add(pool.submit(() -> cases(port, worker, generator, oracle, describe)));
      }
      List<String> failures = new ArrayList<>();
      for (Future<List<String>> f : workers) {
        failures.addAll(f.get());
      }
      stop.set(true);
      return new Outcome(failures, served.get());
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  private static <C> List<String> cases(int port, int worker, Function<Random, C> generator, Oracle<C> oracle,
      Function<C, String> describe) {
    List<String> failures = new ArrayList<>();
    for (int i = worker; i < CASES && failures.size() < FAILURES_PER_WORKER; i += WORKERS) {
      Random r = new Random(SEED * 1_000_003L + i);
      C c = generator.apply(r);
      String problem;
      try {
        problem = oracle.check(c, port, r);
      } catch (IOException e) {
        problem = e.toString();
      }
      if (problem != null) {
        failures.add("case " + i + " (seed " + SEED + "): " + problem + "; " + describe.apply(c));
      }
    }
    return failures;
  }
}
