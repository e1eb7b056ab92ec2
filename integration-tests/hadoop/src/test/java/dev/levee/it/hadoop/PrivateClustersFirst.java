package dev.levee.it.hadoop;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;

/**
 * Runs the test classes that start a cluster of their own before those that share one, and groups
 * the sharing classes by cluster name, so that each shared cluster starts once (only one lives at a
 * time: see {@link SharedClusterExtension}). A ResourceManager keeps its start time in a static
 * field, and a second one started in the same JVM while another lives makes the first one's
 * NodeManagers refuse every new container ("allocated by a previous RM"). Within a group, classes
 * run by {@link Order} (a class whose tests break the cluster for others declares a high one), then
 * by name. Declared in junit-platform.properties.
 */
public final class PrivateClustersFirst implements ClassOrderer {
  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparing((ClassDescriptor d) -> sharedClusterName(d.getTestClass()))
                .thenComparingInt(
                    d -> d.findAnnotation(Order.class).map(Order::value).orElse(Order.DEFAULT))
                .thenComparing(d -> d.getTestClass().getName()));
  }

  /** The name of the shared cluster a test class registers, or "" (sorting first) for none. */
  static String sharedClusterName(Class<?> test) {
    for (Field f : test.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())
          && SharedClusterExtension.class.isAssignableFrom(f.getType())) {
        try {
          f.setAccessible(true);
          SharedClusterExtension shared = (SharedClusterExtension) f.get(null);
          return shared == null ? "?" : shared.name();
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("cannot read " + f + " to order test classes", e);
        }
      }
    }
    return "";
  }
}
