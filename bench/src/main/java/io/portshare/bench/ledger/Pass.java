package io.portshare.bench.ledger;

import io.portshare.bench.cpu.CpuTime;

/**
 * One run of load against one server: operations (transactions or requests) and the connections
 * that carried them, over {@code seconds}, the server's CPU over that window, the client's CPU, the
 * errors the client counted and of them the answers with a status past 3xx ({@code badAnswers}, HTTP).
 */
record Pass(long operations, long connections, double seconds, CpuTime server, double clientSeconds, long errors,
    long badAnswers) {

  double serverMicrosPerOp() {
    return operations == 0 ? Double.NaN : server.seconds() * 1e6 / operations;
  }

  double userMicrosPerOp() {
    return operations == 0 ? Double.NaN : server.userSeconds() * 1e6 / operations;
  }

  double systemMicrosPerOp() {
    return operations == 0 ? Double.NaN : server.systemSeconds() * 1e6 / operations;
  }

  double clientMicrosPerOp() {
    return operations == 0 ? Double.NaN : clientSeconds * 1e6 / operations;
  }

  double perSecond() {
    return seconds <= 0 ? 0 : operations / seconds;
  }
}
