package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineTest {

  @Test
  void theNetworkLineSaysWhereTheRunWasAndWarnsWhenConnectionsAreTracked() {
    assertThat(Machine.network("portshare-bench-42", 0, 262144))
        .isEqualTo("private network namespace portshare-bench-42, connection tracking idle (0 entries)");
    assertThat(Machine.network(null, -1, -1)).isEqualTo("this host's network namespace, no connection tracking");
    assertThat(Machine.network("", 247508, 262144))
        .startsWith("this host's network namespace, CONNECTION TRACKING ON: 247508 of 262144 entries");
  }

  @Test
  void describeHasTheNetworkLine() {
    assertThat(Machine.describe()).containsKey("network");
  }
}
