package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoopbackTest {

  @Test
  void everyRunGetsTheNextAddressWrappingAfter254() {
    Loopback l = new Loopback(253);
    assertThat(l.next()).isEqualTo("127.0.0.253");
    assertThat(l.next()).isEqualTo("127.0.0.254");
    assertThat(l.next()).isEqualTo("127.0.0.2");
  }

  @Test
  void theStartMustBeAUsableOctet() {
    assertThatThrownBy(() -> new Loopback(1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Loopback(255)).isInstanceOf(IllegalArgumentException.class);
  }
}
