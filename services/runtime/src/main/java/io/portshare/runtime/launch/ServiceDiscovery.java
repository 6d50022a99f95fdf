package io.portshare.runtime.launch;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.jar.Manifest;

/**
 * Which service a launch runs: the services on the class path ({@link ServiceLoader}), and the one
 * that {@code --service}, {@code PORTSHARE_SERVICE}, the jar's manifest or, alone, the class path names.
 */
final class ServiceDiscovery {

  /** Manifest attribute naming the service a jar runs when {@code --service} is not given. */
  static final String MANIFEST_SERVICE = "Portshare-Service";
  /** The environment variable naming the service, as --service does. */
  static final String SERVICE_ENV = "PORTSHARE_SERVICE";

  private ServiceDiscovery() {}

  /** Every service on the class path, by name. */
  static Map<String, ServiceDescriptor> discover() {
    Map<String, ServiceDescriptor> services = new TreeMap<>();
    for (ServiceDescriptor d : ServiceLoader.load(ServiceDescriptor.class)) {
      services.put(d.name(), d);
    }
    return services;
  }

  /** Takes {@code --service NAME} (or {@code --service=NAME}) out of {@code args}; null when absent. */
  static String takeServiceFlag(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--service=")) {
        args.remove(i);
        return a.substring("--service=".length());
      }
      if (a.equals("--service")) {
        if (i + 1 >= args.size()) {
          throw new UsageException("option --service needs a value (see --help)");
        }
        args.remove(i);
        return args.remove(i);
      }
    }
    return null;
  }

  /** The service {@code name} names, else the manifest's, else the only one; one line (exit 2) otherwise. */
  static ServiceDescriptor choose(Map<String, ServiceDescriptor> services, String name) {
    if (name == null) {
      name = manifestService();
    }
    if (name == null && services.size() == 1) {
      return services.values().iterator().next();
    }
    if (name == null) {
      throw new UsageException("which service? give --service NAME, one of " + String.join("|", services.keySet()));
    }
    ServiceDescriptor d = services.get(name);
    if (d == null) {
      throw new UsageException("invalid value for service: \"" + name + "\"; expected one of "
          + String.join("|", services.keySet()));
    }
    return d;
  }

  private static String manifestService() {
    try {
      Enumeration<URL> manifests = ServiceDiscovery.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
      while (manifests.hasMoreElements()) {
        try (InputStream in = manifests.nextElement().openStream()) {
          String s = new Manifest(in).getMainAttributes().getValue(MANIFEST_SERVICE);
          if (s != null) {
            return s.trim();
          }
        }
      }
    } catch (IOException e) {
      // No manifest to read: fall back to the other ways of naming the service.
    }
    return null;
  }
}
