package io.portshare.bench.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RpcCalibrateVerdictTest {

  @Test
  void countedErrorsFailTheRunWhateverTheRatios() {
    assertThat(RpcCalibrateCommand.verdict(true, 1, 0, 8)).startsWith("FAIL").contains("1 of 8");
    assertThat(RpcCalibrateCommand.verdict(false, 2, 5, 8)).startsWith("FAIL").contains("2 of 8");
  }

  @Test
  void aSlowGeneratorLeavesTheClosedLoopToTheCClient() {
    assertThat(RpcCalibrateCommand.verdict(false, 0, 5, 8)).contains("5 of 8").contains("C client")
        .contains("--engine auto");
    assertThat(RpcCalibrateCommand.verdict(true, 0, 0, 8)).startsWith("PASS");
  }
}
