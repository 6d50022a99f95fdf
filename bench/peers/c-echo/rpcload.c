/*
 * The reference client of the RPC benchmark: a minimal closed-loop load generator for the echo
 * protocol, the yardstick portshare-bench's own generator is calibrated against (and the engine of
 * its closed-loop cells when asked for with --engine c). T threads, each with its own epoll set
 * and C/T connections; each connection sends one frame of S payload bytes and waits for its echo
 * (checked byte for byte), N transactions per connection, then closes with a reset (SO_LINGER 0)
 * and opens a new one. Connects are non-blocking; one edge-triggered registration per connection
 * serves the connect, the reads and nothing else, so a transaction costs a write and a read and a
 * connection costs socket, two setsockopt, connect, epoll_ctl and close.
 *
 * Counts only what completes between warm-up and the end of the run. SIGTERM or SIGINT ends the run
 * early, as if its time were up (a driver that waits for an event rather than a clock stops it so).
 * Prints "measuring" when the measured window opens and "done" when it closes (a driver reads the
 * server's CPU at both), then
 * one "result" line of key=value pairs (transactions, seconds, CPU of
 * this process over the window from getrusage, errors by kind), then a line for people.
 *
 * usage: rpcload [-h host] [-p port] [-c conns] [-s size] [-n trans-per-conn] [-d seconds]
 *                [-w warmup-seconds] [-t threads]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

enum { E_REFUSED, E_RESET, E_CLOSED, E_WRONG, E_OTHER, E_KINDS };
static const char *kind_names[E_KINDS] = {"connect_refused", "reset", "closed", "wrong_payload", "other"};

static struct sockaddr_in addr;
static char *frame;
static size_t frame_len;
static long per_conn = 1024;
static volatile int measuring; /* 1 inside the measured window */
static volatile int stopping;
static volatile sig_atomic_t cut_short; /* SIGTERM or SIGINT: end the run now */

/* Latency in microseconds, log-linear buckets: exact below 64 us, then 32 per power of two (3%). */
#define BUCKETS 2048

static int bucket(uint64_t us) {
  if (us < 64) return (int)us;
  int shift = 63 - __builtin_clzll(us) - 5;
  int b = 64 + (shift - 1) * 32 + (int)((us >> shift) - 32);
  return b < BUCKETS ? b : BUCKETS - 1;
}

/* The highest value a bucket holds. */
static uint64_t bucket_top(int b) {
  if (b < 64) return (uint64_t)b;
  int shift = (b - 64) / 32 + 1;
  return ((uint64_t)((b - 64) % 32 + 33) << shift) - 1;
}

struct conn {
  int fd;
  int connected;
  double sent;      /* when the request in flight went out (the connect, for the first) */
  long done;  /* transactions on this connection */
  size_t got; /* bytes of the current answer received */
  char *buf;
};

struct worker {
  pthread_t thread;
  int conns;
  long total;
  long latency[BUCKETS];
  double latency_sum, latency_max;
  long errors[E_KINDS];
};


static void count_error(struct worker *w, int kind) {
  if (measuring) w->errors[kind]++;
}

static int kind_of(int err) {
  if (err == ECONNREFUSED) return E_REFUSED;
  if (err == ECONNRESET || err == EPIPE) return E_RESET;
  return E_OTHER;
}

static void open_conn(int ep, struct conn *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct linger l = {1, 0};
  setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  c->connected = 0;
  c->done = 0;
  c->got = 0;
  c->sent = now();
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
  epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
  /* EINPROGRESS or done at once; either way EPOLLOUT says when the first write may go. */
  connect(c->fd, (struct sockaddr *)&addr, sizeof addr);
}

/* close() removes the descriptor from the epoll set: no EPOLL_CTL_DEL needed. */
static void reopen(int ep, struct conn *c) {
  close(c->fd);
  if (!stopping) open_conn(ep, c);
}

static void fail(struct worker *w, int ep, struct conn *c, int kind) {
  count_error(w, kind);
  if (kind == E_REFUSED) usleep(20000); /* a refused port must not become a busy loop */
  reopen(ep, c);
}

static void send_frame(struct worker *w, int ep, struct conn *c) {
  if (c->done > 0) c->sent = now();
  if (write(c->fd, frame, frame_len) != (ssize_t)frame_len) fail(w, ep, c, kind_of(errno));
}

static void *run(void *arg) {
  struct worker *w = arg;
  int ep = epoll_create1(0);
  struct conn *cs = calloc(w->conns, sizeof *cs);
  for (int i = 0; i < w->conns; i++) {
    cs[i].buf = malloc(frame_len);
    open_conn(ep, &cs[i]);
  }
  struct epoll_event events[256];
  while (!stopping) {
    int k = epoll_wait(ep, events, 256, 100);
    for (int i = 0; i < k; i++) {
      struct conn *c = events[i].data.ptr;
      if (!c->connected) {
        if (!(events[i].events & EPOLLOUT)) {
          int err = 0;
          socklen_t len = sizeof err;
          getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
          fail(w, ep, c, kind_of(err));
          continue;
        }
        c->connected = 1;
        send_frame(w, ep, c);
        continue;
      }
      if (!(events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))) continue;
      ssize_t r = read(c->fd, c->buf + c->got, frame_len - c->got);
      if (r < 0 && errno == EAGAIN) continue;
      if (r <= 0) {
        fail(w, ep, c, r == 0 ? E_CLOSED : kind_of(errno));
        continue;
      }
      c->got += r;
      if (c->got < frame_len) continue;
      c->got = 0;
      if (memcmp(c->buf, frame, frame_len) != 0) {
        fail(w, ep, c, E_WRONG);
        continue;
      }
      if (measuring) {
        double us = (now() - c->sent) * 1e6;
        w->total++;
        w->latency[bucket(us < 1 ? 1 : (uint64_t)us)]++;
        w->latency_sum += us;
        if (us > w->latency_max) w->latency_max = us;
      }
      if (++c->done >= per_conn) {
        reopen(ep, c);
      } else {
        send_frame(w, ep, c);
      }
    }
  }
  for (int i = 0; i < w->conns; i++) close(cs[i].fd);
  return NULL;
}

static double cpu_seconds(struct timeval tv) {
  return tv.tv_sec + tv.tv_usec / 1e6;
}

static void on_stop_signal(int sig) {
  (void)sig;
  cut_short = 1;
}

/* Sleeps in steps of at most 50 ms, so that a stop signal taken by any thread ends it soon. */
static void sleep_seconds(double s) {
  double until = now() + s;
  for (double left = s; left > 0 && !cut_short; left = until - now()) {
    double step = left < 0.05 ? left : 0.05;
    struct timespec t = {0, (long)(step * 1e9)};
    nanosleep(&t, NULL);
  }
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1";
  int port = 9090, conns = 64;
  int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  long size = 64;
  double seconds = 10, warmup = 0;
  int opt;
  while ((opt = getopt(argc, argv, "h:p:c:s:n:d:w:t:")) != -1) {
    switch (opt) {
      case 'h': host = optarg; break;
      case 'p': port = atoi(optarg); break;
      case 'c': conns = atoi(optarg); break;
      case 's': size = atol(optarg); break;
      case 'n': per_conn = atol(optarg); break;
      case 'd': seconds = atof(optarg); break;
      case 'w': warmup = atof(optarg); break;
      case 't': threads = atoi(optarg); break;
      default:
        fprintf(stderr, "usage: %s [-h host] [-p port] [-c conns] [-s size] [-n trans-per-conn] [-d seconds] "
                "[-w warmup-seconds] [-t threads]\n", argv[0]);
        return 2;
    }
  }
  if (conns < 1 || threads < 1 || size < 0 || per_conn < 1 || seconds <= 0 || warmup < 0
      || inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
    fprintf(stderr, "rpcload: bad arguments (host must be an IPv4 address; counts positive)\n");
    return 2;
  }
  if (threads > conns) threads = conns;
  signal(SIGPIPE, SIG_IGN);
  struct sigaction stop = {.sa_handler = on_stop_signal};
  sigaction(SIGTERM, &stop, NULL);
  sigaction(SIGINT, &stop, NULL);
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  frame_len = 4 + size;
  frame = malloc(frame_len);
  uint32_t n = htonl((uint32_t)size);
  memcpy(frame, &n, 4);
  for (long i = 0; i < size; i++) frame[4 + i] = (char)(i * 31 + 7);

  struct worker *ws = calloc(threads, sizeof *ws);
  for (int i = 0; i < threads; i++) {
    ws[i].conns = conns / threads + (i < conns % threads ? 1 : 0);
    pthread_create(&ws[i].thread, NULL, run, &ws[i]);
  }
  sleep_seconds(warmup);
  struct rusage u0, u1;
  getrusage(RUSAGE_SELF, &u0);
  double start = now();
  measuring = 1;
  printf("measuring\n");
  fflush(stdout);
  sleep_seconds(seconds);
  measuring = 0;
  double took = now() - start;
  getrusage(RUSAGE_SELF, &u1);
  printf("done\n");
  fflush(stdout);
  stopping = 1;
  long total = 0, errors[E_KINDS] = {0}, all_errors = 0;
  static long latency[BUCKETS];
  double latency_sum = 0, latency_max = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(ws[i].thread, NULL);
    total += ws[i].total;
    for (int k = 0; k < E_KINDS; k++) errors[k] += ws[i].errors[k];
    for (int b = 0; b < BUCKETS; b++) latency[b] += ws[i].latency[b];
    latency_sum += ws[i].latency_sum;
    if (ws[i].latency_max > latency_max) latency_max = ws[i].latency_max;
  }
  const double pct[] = {50, 90, 99, 99.9};
  const char *pct_names[] = {"p50", "p90", "p99", "p999"};
  uint64_t pct_us[4] = {0};
  for (int p = 0; p < 4 && total > 0; p++) {
    long want = (long)(total * pct[p] / 100 + 0.5), seen = 0;
    if (want < 1) want = 1;
    for (int b = 0; b < BUCKETS; b++) {
      seen += latency[b];
      if (seen >= want) { pct_us[p] = bucket_top(b); break; }
    }
  }
  double user = cpu_seconds(u1.ru_utime) - cpu_seconds(u0.ru_utime);
  double sys = cpu_seconds(u1.ru_stime) - cpu_seconds(u0.ru_stime);
  printf("result transactions=%ld seconds=%.6f cpu_user_seconds=%.6f cpu_system_seconds=%.6f", total, took, user, sys);
  for (int k = 0; k < E_KINDS; k++) {
    printf(" errors_%s=%ld", kind_names[k], errors[k]);
    all_errors += errors[k];
  }
  printf(" latency_us_mean=%.1f", total > 0 ? latency_sum / total : 0.0);
  for (int p = 0; p < 4; p++) printf(" latency_us_%s=%lu", pct_names[p], (unsigned long)pct_us[p]);
  printf(" latency_us_max=%.0f", latency_max);
  printf("\n%.0f trans/s  (%ld in %.2f s, %d threads, %d conns, %ld B, %ld per conn, %ld errors, "
         "client CPU %.1f us/transaction)\n", total / took, total, took, threads, conns, size, per_conn, all_errors,
         total > 0 ? (user + sys) * 1e6 / total : 0.0);
  return all_errors ? 1 : 0;
}
