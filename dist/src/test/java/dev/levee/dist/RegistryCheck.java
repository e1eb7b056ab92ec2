package dev.levee.dist;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Validates settings against one module's configuration registry, through the plugin jar itself.
 *
 * <p>Each plugin jar carries levee-config relocated into its own package, so the registry types
 * differ per jar; the check therefore calls {@code REGISTRY.validate(source)} reflectively, with a
 * source implementing that jar's own {@code ConfigSource}. This is the same call the plugin makes
 * at start-up, so a sample passes here exactly when the plugin would accept it.
 */
final class RegistryCheck {
  private final String prefix;
  private final Object registry;
  private final Method validate;

  RegistryCheck(String prefix, String confClass) throws ReflectiveOperationException {
    this.prefix = prefix;
    this.registry = Class.forName(confClass).getField("REGISTRY").get(null);
    Method v = null;
    for (Method m : registry.getClass().getMethods()) {
      if (m.getName().equals("validate") && m.getParameterCount() == 1) {
        v = m;
      }
    }
    if (v == null) {
      throw new IllegalStateException(confClass + ".REGISTRY has no validate(ConfigSource)");
    }
    this.validate = v;
  }

  String prefix() {
    return prefix;
  }

  /**
   * Problems with {@code settings} under this registry's prefix; empty when the plugin accepts
   * them.
   */
  List<String> problems(String file, Map<String, String> settings) {
    Class<?> sourceType = validate.getParameterTypes()[0];
    Object source =
        Proxy.newProxyInstance(
            sourceType.getClassLoader(),
            new Class<?>[] {sourceType},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "get" -> settings.get((String) args[0]);
                  case "keys" -> settings.keySet();
                  case "toString" -> file;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
    List<String> problems = new ArrayList<>();
    try {
      List<?> unknown = (List<?>) validate.invoke(registry, source);
      for (Object u : unknown) {
        problems.add(file + ": " + u.getClass().getMethod("message").invoke(u));
      }
    } catch (InvocationTargetException e) {
      problems.add(file + ": " + e.getCause().getMessage());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return problems;
  }
}
