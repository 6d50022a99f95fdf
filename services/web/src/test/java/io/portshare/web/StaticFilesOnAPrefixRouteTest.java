package io.portshare.web;

import io.vertx.ext.web.Router;

/** Every {@link StaticFilesTest} with the handler on a prefix route: {@code router.route("/static/*").handler(files)}. */
class StaticFilesOnAPrefixRouteTest extends StaticFilesTest {

  @Override
  String mount() {
    return "/static";
  }

  @Override
  void route(Router router, StaticFiles files) {
    router.route("/static/*").handler(files);
  }
}
