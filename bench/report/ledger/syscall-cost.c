#include <stdio.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <time.h>
#include <unistd.h>
static double now(){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec/1e9;}
int main(){
  int s=socket(AF_INET,SOCK_STREAM,0); struct sockaddr_in a; socklen_t l; int v; socklen_t vl;
  int ep=epoll_create1(0); struct epoll_event e={.events=EPOLLIN|EPOLLET,.data.fd=s};
  epoll_ctl(ep,EPOLL_CTL_ADD,s,&e);
  int N=1000000; double t0,t1;
  t0=now(); for(int i=0;i<N;i++){l=sizeof a; getsockname(s,(struct sockaddr*)&a,&l);} t1=now(); printf("getsockname %.3f us\n",(t1-t0)*1e6/N);
  t0=now(); for(int i=0;i<N;i++){vl=sizeof v; getsockopt(s,SOL_SOCKET,SO_SNDBUF,&v,&vl);} t1=now(); printf("getsockopt %.3f us\n",(t1-t0)*1e6/N);
  t0=now(); for(int i=0;i<N;i++){v=1; setsockopt(s,IPPROTO_TCP,TCP_NODELAY,&v,sizeof v);} t1=now(); printf("setsockopt %.3f us\n",(t1-t0)*1e6/N);
  t0=now(); for(int i=0;i<N;i++){e.events=(i&1)?EPOLLIN|EPOLLET:EPOLLIN|EPOLLRDHUP|EPOLLET; epoll_ctl(ep,EPOLL_CTL_MOD,s,&e);} t1=now(); printf("epoll_ctl MOD %.3f us\n",(t1-t0)*1e6/N);
  t0=now(); for(int i=0;i<N;i++){epoll_ctl(ep,EPOLL_CTL_DEL,s,&e); epoll_ctl(ep,EPOLL_CTL_ADD,s,&e);} t1=now(); printf("epoll_ctl DEL+ADD %.3f us\n",(t1-t0)*1e6/N);
  return 0;}
