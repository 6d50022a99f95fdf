package io.portshare.runtime.impl;

import io.portshare.runtime.ServiceContext;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Context;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * The runtime's side of {@link ServiceVerticle}: it hands the verticle its context and calls its
 * warm-up hook, which the API keeps out of a service author's reach (no public setter, no public
 * hook), as the JDK's own packages reach each other's private parts: through a private lookup in
 * the API class, which the class path's one unnamed module always opens.
 */
final class VerticleAccess {

  private static final VarHandle SERVICE;
  private static final MethodHandle WARMED_UP;
  private static final MethodHandle VERTX_CONTEXT;

  static {
    try {
      MethodHandles.Lookup api = MethodHandles.privateLookupIn(ServiceVerticle.class, MethodHandles.lookup());
      SERVICE = api.findVarHandle(ServiceVerticle.class, "service", ServiceContext.class);
      WARMED_UP = api.findVirtual(ServiceVerticle.class, "warmedUp", MethodType.methodType(void.class));
      VERTX_CONTEXT = api.findVirtual(ServiceVerticle.class, "vertxContext", MethodType.methodType(Context.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private VerticleAccess() {}

  static void attach(ServiceVerticle verticle, ServiceContext context) {
    SERVICE.set(verticle, context);
  }

  static ServiceContext context(ServiceVerticle verticle) {
    return (ServiceContext) SERVICE.get(verticle);
  }

  static void warmedUp(ServiceVerticle verticle) {
    try {
      WARMED_UP.invokeExact(verticle);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  static Context vertxContext(ServiceVerticle verticle) {
    try {
      return (Context) VERTX_CONTEXT.invokeExact(verticle);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
