/*
 * The peer the RPC benchmark compares rpc-server against: a minimal C echo server of the same
 * wire format (4-byte big-endian length, then the payload), one thread per CPU, each with its own
 * SO_REUSEPORT listener and epoll set, so the kernel spreads connections as in reuseport mode.
 * It does the work rpc-server does: checks each length against the maximum, answers complete
 * frames in order (all complete frames of one read in one write), keeps a cut frame for the next
 * read, and stops reading while a slow client has answers pending.
 *
 * usage: echo [-p port] [-t threads] [-m max-payload]   (defaults 9092, CPUs, 1048576)
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
#include <sys/socket.h>
#include <unistd.h>

#define READ_SIZE 65536

static int port = 9092;
static uint32_t max_payload = 1u << 20;

struct conn {
  int fd;
  char *in;          /* bytes read and not yet answered: complete frames, then a cut one */
  size_t in_len, in_cap;
  char *out;         /* answers the socket would not take yet */
  size_t out_off, out_len;
};

static int listener(void) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
  if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 4096) < 0) {
    perror("listen");
    exit(1);
  }
  return fd;
}

static void drop(int ep, struct conn *c) {
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  free(c->in);
  free(c->out);
  free(c);
}

/* Writes what is pending; returns 1 when all of it went out, 0 when the socket is full, -1 on error. */
static int flush_out(struct conn *c) {
  while (c->out_off < c->out_len) {
    ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    c->out_off += n;
  }
  c->out_off = c->out_len = 0;
  return 1;
}

/* Reads once, answers the complete frames; returns -1 to close the connection. */
static int on_readable(int ep, struct conn *c) {
  if (c->in_cap - c->in_len < READ_SIZE && c->in_cap < max_payload + 4 + READ_SIZE) {
    c->in_cap = c->in_cap * 2 > c->in_len + READ_SIZE ? c->in_cap * 2 : c->in_len + READ_SIZE;
    c->in = realloc(c->in, c->in_cap);
  }
  ssize_t n = read(c->fd, c->in + c->in_len, c->in_cap - c->in_len);
  if (n == 0) return -1;
  if (n < 0) return errno == EAGAIN ? 0 : -1;
  c->in_len += n;
  size_t done = 0;
  while (c->in_len - done >= 4) {
    uint32_t len;
    memcpy(&len, c->in + done, 4);
    len = ntohl(len);
    if (len > max_payload) return -1;
    if (c->in_len - done < 4 + (size_t)len) break;
    done += 4 + (size_t)len;
  }
  if (done > 0) {
    ssize_t w = write(c->fd, c->in, done);
    if (w < 0 && errno != EAGAIN) return -1;
    if (w < 0) w = 0;
    if ((size_t)w < done) { /* the client reads slower than it writes: hold the rest, stop reading */
      c->out = realloc(c->out, done - w);
      memcpy(c->out, c->in + w, done - w);
      c->out_off = 0;
      c->out_len = done - w;
      struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = c};
      epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
    }
    memmove(c->in, c->in + done, c->in_len - done);
    c->in_len -= done;
  }
  return 0;
}

static void *loop(void *arg) {
  (void)arg;
  int lfd = listener();
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  struct epoll_event events[256];
  for (;;) {
    int k = epoll_wait(ep, events, 256, -1);
    for (int i = 0; i < k; i++) {
      struct conn *c = events[i].data.ptr;
      if (c == NULL) {
        int fd;
        while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          int one = 1;
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          c = calloc(1, sizeof *c);
          c->fd = fd;
          struct epoll_event cev = {.events = EPOLLIN, .data.ptr = c};
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
        }
        continue;
      }
      int r = 0;
      if (events[i].events & EPOLLOUT) {
        r = flush_out(c);
        if (r == 1) {
          struct epoll_event cev = {.events = EPOLLIN, .data.ptr = c};
          epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &cev);
          r = 0;
        } else if (r == 0) {
          continue;
        }
      } else if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        r = on_readable(ep, c);
      }
      if (r < 0) drop(ep, c);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  int opt;
  while ((opt = getopt(argc, argv, "p:t:m:")) != -1) {
    if (opt == 'p') port = atoi(optarg);
    else if (opt == 't') threads = atoi(optarg);
    else if (opt == 'm') max_payload = (uint32_t)strtoul(optarg, NULL, 10);
    else {
      fprintf(stderr, "usage: %s [-p port] [-t threads] [-m max-payload]\n", argv[0]);
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  pthread_t t[threads];
  for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, loop, NULL);
  fprintf(stderr, "c-echo: %d threads on port %d\n", threads, port);
  for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
  return 0;
}
