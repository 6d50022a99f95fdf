package io.portshare.web;

import io.vertx.ext.web.Router;

/**
 * Every {@link StaticFilesTest} with the handler on a sub-router mounted at {@code /assets/}: the path
 * it serves is the request's below the mount point.
 */
class StaticFilesUnderAssetsTest extends StaticFilesTest {

  @Override
  String mount() {
    return "/assets";
  }

  @Override
  void route(Router router, StaticFiles files) {
    Router assets = Router.router(vertx);
    assets.route().handler(files);
    router.route("/assets/*").subRouter(assets);
  }
}
