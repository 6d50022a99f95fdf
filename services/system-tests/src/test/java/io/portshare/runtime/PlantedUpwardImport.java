package io.portshare.runtime;

import io.portshare.runtime.impl.ServiceRuntime;

/**
 * A class planted in the API package that names the runtime behind it: RuntimeLayersTest's rules
 * must find it, or they find nothing. It lives in the tests alone and is never shipped.
 */
final class PlantedUpwardImport {

  int portOf(ServiceRuntime runtime) {
    return runtime.port();
  }
}
