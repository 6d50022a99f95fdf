package io.portshare.rpc.fuzz;

import java.util.List;

/** {@link RpcFuzzTest} again with {@code --engine vertx}: the same streams, the same answers. */
class RpcFuzzOnVertxTest extends RpcFuzzTest {

  @Override
  List<String> engineFlags() {
    return List.of("--engine", "vertx");
  }
}
