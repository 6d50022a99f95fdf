#!/usr/bin/env bash
# Sums a histogram-per-conn.sh output into the items of README.md, each the class or library behind it.
# Classes are matched by name; an Object[] of 4,120 B is a JCTools chunk (1,024 references and the link
# to the next), the rest of Object[] goes to "other". usage: itemise.sh histogram.txt
awk '
function item(c) {
  if (c ~ /jctools\.queues\.MpscUnboundedArrayQueue$|MessagePassingQueue\$MpSc$|VertxConnection\$InternalMessageChannel$/) return "1 Vert.x OutboundMessageQueue (JCTools MPSC), two per connection: all but the chunk"
  if (c ~ /^io\.vertx\.core\.net\.impl\.NetSocketImpl|NetServerImpl\$NetSocketInitializer/) return "2 Vert.x NetSocketImpl the HTTP connection replaces (without its queue)"
  if (c ~ /HeadersMultiMap/) return "3 Vert.x HeadersMultiMap: maps, bucket arrays, one entry per header"
  if (c ~ /^io\.vertx\.core\.http\./) return "4 Vert.x HTTP/1.x connection, request, response, codec"
  if (c ~ /^io\.vertx\.core\./) return "5 Vert.x core: connection base, handlers, promises, context"
  if (c ~ /^io\.vertx\.ext\.web\./) return "6 vertx-web: routing context, request wrapper, forwarded parser"
  if (c ~ /^io\.netty\.handler\.timeout\.|^io\.portshare\.runtime\.net\.IdleSweep/) return "7 the idle timeout: Netty IdleStateHandler (Vert.x) or the runtime IdleSweep watch"
  if (c ~ /ClosedChannelException|StackTraceElement/) return "8 Netty: a ClosedChannelException made on every close"
  if (c ~ /^io\.netty\.handler\.codec\.http\./) return "9 Netty HTTP codec parts"
  if (c ~ /^io\.netty\.channel\.(Default|Void|AbstractChannel|ChannelOutbound|SucceededChannel|DefaultChannelPipeline)|^io\.netty\.util\.concurrent\./) return "10 Netty pipeline: contexts, promises, listeners, outbound buffer"
  if (c ~ /^io\.netty\./) return "11 Netty epoll channel, allocator handles, buffers"
  if (c ~ /^io\.portshare\.runtime\./) return "12 runtime: accepted channel, its config, its registration"
  if (c ~ /^io\.portshare\.web\./) return "13 portshare-web StaticFiles"
  return "14 JDK objects (byte[], String, HashMap, addresses...) and other Object[]"
}
$1 ~ /^[0-9.]+$/ && NF >= 3 {
  c = $3; b = $1
  if (c == "[Ljava.lang.Object;") { chunks = int($2 + 0.5) >= 2 ? 2 : 0; s["0 Vert.x OutboundMessageQueue (JCTools MPSC), two per connection: the first chunk, Object[1025]"] += chunks * 4120; s[item("x")] += b - chunks * 4120; next }
  s[item(c)] += b; total += b
}
/# total:/ { head = $0 }
END {
  print head; print "# item  B/conn  what"
  for (k in s) { n = k; sub(/ .*/, "", n); label = k; sub(/^[0-9]+ /, "", label); printf "%6s %7.0f  %s\n", n, s[k], label | "sort -n" }
}' "$1"
