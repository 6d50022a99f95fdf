package io.portshare.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The supervisor's decisions, without a process: restart back-off and the order a stop takes. */
class SupervisorPolicyTest {

  @ParameterizedTest(name = "alive {0} s, restart {1}: wait {2} s")
  @CsvSource({
      // a child that lived, restarted at once however often
      "10, 1, 0",
      "10, 50, 0",
      "2, 9, 0",
      // one that died at once: at once for the first three restarts, then with a pause
      "0, 1, 0",
      "1, 3, 0",
      "1, 4, 2",
      "0, 100, 2",
  })
  void aChildThatDiesAtOnceAgainAndAgainIsRestartedWithAPause(long aliveSeconds, int restarts, long delay) {
    assertThat(SupervisorPolicy.restartDelaySeconds(aliveSeconds, restarts)).isEqualTo(delay);
  }

  @ParameterizedTest(name = "ready {0}, retiring {1}, another serves its slot {2}: stops first {3}")
  @CsvSource({
      // a replacement still starting or warming up, beside the child it is to replace: first
      "false, false, true,  true",
      // nothing else serves its slot: it is the slot's only child, it drains with the rest
      "false, false, false, false",
      // ready: it serves, it drains with the rest
      "true,  false, true,  false",
      "true,  false, false, false",
      // told to stop already (a replaced child draining): not stopped again
      "false, true,  true,  false",
      "true,  true,  true,  false",
  })
  void aStopStopsFirstOnlyAReplacementThatIsNotReadyBesideAServingChild(boolean ready, boolean retiring,
      boolean servingOther, boolean first) {
    assertThat(SupervisorPolicy.stopsFirst(ready, retiring, servingOther)).isEqualTo(first);
  }
}
