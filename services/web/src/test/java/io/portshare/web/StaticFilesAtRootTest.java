package io.portshare.web;

import io.vertx.ext.web.Router;

/** Every {@link StaticFilesTest} with the handler on the Router's root: {@code router.route().handler(files)}. */
class StaticFilesAtRootTest extends StaticFilesTest {

  @Override
  String mount() {
    return "";
  }

  @Override
  void route(Router router, StaticFiles files) {
    router.route().handler(files);
  }
}
