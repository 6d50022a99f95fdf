/*
 * A small closed-loop load generator for the RPC echo protocol: C connections, each sending one
 * frame of S payload bytes and waiting for its echo (checked byte for byte), N transactions per
 * connection, then a close with a reset (SO_LINGER 0) and a new connection. One thread, epoll.
 * Prints transactions/s over the run. The bench module holds the full driver; this is the quick
 * tool used to compare rpc-server with echo.c by hand.
 *
 * usage: rpcload [-h host] [-p port] [-c conns] [-s size] [-n trans-per-conn] [-d seconds]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct sockaddr_in addr;
static char *frame;
static size_t frame_len;
static long per_conn = 1024;
static long total, errors;

struct conn {
  int fd;
  long done;        /* transactions on this connection */
  size_t got;       /* bytes of the current answer received */
  char *buf;
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void open_conn(int ep, struct conn *c) {
  c->fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct linger l = {1, 0};
  setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  /* A blocking connect on loopback completes at once; the rest of the run is non-blocking reads. */
  if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
    perror("connect");
    exit(1);
  }
  c->done = 0;
  c->got = 0;
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
  epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
  if (write(c->fd, frame, frame_len) != (ssize_t)frame_len) errors++;
}

static void close_conn(int ep, struct conn *c) {
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1";
  int port = 9090, conns = 64;
  long size = 64;
  double seconds = 10;
  int opt;
  while ((opt = getopt(argc, argv, "h:p:c:s:n:d:")) != -1) {
    switch (opt) {
      case 'h': host = optarg; break;
      case 'p': port = atoi(optarg); break;
      case 'c': conns = atoi(optarg); break;
      case 's': size = atol(optarg); break;
      case 'n': per_conn = atol(optarg); break;
      case 'd': seconds = atof(optarg); break;
      default:
        fprintf(stderr, "usage: %s [-h host] [-p port] [-c conns] [-s size] [-n trans-per-conn] [-d seconds]\n", argv[0]);
        return 2;
    }
  }
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  inet_pton(AF_INET, host, &addr.sin_addr);
  frame_len = 4 + size;
  frame = malloc(frame_len);
  uint32_t n = htonl((uint32_t)size);
  memcpy(frame, &n, 4);
  for (long i = 0; i < size; i++) frame[4 + i] = (char)(i * 31 + 7);

  int ep = epoll_create1(0);
  struct conn *cs = calloc(conns, sizeof *cs);
  for (int i = 0; i < conns; i++) {
    cs[i].buf = malloc(frame_len);
    open_conn(ep, &cs[i]);
  }
  struct epoll_event events[256];
  double start = now(), end = start + seconds;
  while (now() < end) {
    int k = epoll_wait(ep, events, 256, 100);
    for (int i = 0; i < k; i++) {
      struct conn *c = events[i].data.ptr;
      ssize_t r = read(c->fd, c->buf + c->got, frame_len - c->got);
      if (r <= 0) {
        if (r < 0 && errno == EAGAIN) continue;
        errors++;
        close_conn(ep, c);
        open_conn(ep, c);
        continue;
      }
      c->got += r;
      if (c->got < frame_len) continue;
      if (memcmp(c->buf, frame, frame_len) != 0) errors++;
      total++;
      c->got = 0;
      if (++c->done >= per_conn) {
        close_conn(ep, c);
        open_conn(ep, c);
      } else if (write(c->fd, frame, frame_len) != (ssize_t)frame_len) {
        errors++;
      }
    }
  }
  double took = now() - start;
  printf("%.0f trans/s  (%ld in %.2f s, %d conns, %ld B, %ld per conn, %ld errors)\n", total / took, total, took,
         conns, size, per_conn, errors);
  return errors ? 1 : 0;
}
