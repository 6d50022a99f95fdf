package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** An effect's metadata line gives the effect back, so that {@code report DIR} writes the effects block again. */
class EffectLineTest {

  @Test
  void aLineGivesItsEffectBack() {
    List<Effect> effects = List.of(
        new Effect("000", "seed 000: after/before requests/s below 1 at every size (about a third)",
            "after/before requests/s 0.33-0.34x", "static-server 0.90x; nginx 0.97x", true,
            "the published after is a kernel's rework (of listening sockets); here one socket"),
        new Effect("000", "target: 0 errors", "(no errors published)", "errors: static-server 0, nginx 88510", true, null),
        new Effect("002", "sendfile | beats send", "3.01x", "1.2x", false, ""),
        new Effect("004", "kevent/epoll", "1.52", "-", null, "not run"),
        new Effect("003", "12 cells", "12 of 12 cells", "-", null, null));
    for (Effect e : effects) {
      Effect back = Effect.fromLine(e.seed(), e.line());
      assertThat(back.line()).isEqualTo(e.line());
      assertThat(back.verdict()).isEqualTo(e.verdict());
      assertThat(SeedReport.text(List.of(back))).isEqualTo(SeedReport.text(List.of(e)));
    }
  }

  @Test
  void aLineWithoutItsPartsIsRefusedWithTheLine() {
    assertThatThrownBy(() -> Effect.fromLine("000", "seed 000: something | shown"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("not an effect's line: seed 000: something | shown");
    assertThatThrownBy(() -> Effect.fromLine("000", "c | published: p | this run: h | maybe"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("no verdict in an effect's line");
  }
}
