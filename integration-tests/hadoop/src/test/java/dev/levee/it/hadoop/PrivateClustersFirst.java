package dev.levee.it.hadoop;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Comparator;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Runs the test classes that start a cluster of their own before those that share the {@link
 * TestClusters#SHARED} one. A ResourceManager keeps its start time in a static field, and a second
 * one started in the same JVM while the shared cluster lives makes the shared cluster's
 * NodeManagers refuse every new container ("allocated by a previous RM"). Declared in
 * junit-platform.properties; otherwise the order stays JUnit's default (by class name).
 */
public final class PrivateClustersFirst implements ClassOrderer {
  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparing(
                    (org.junit.jupiter.api.ClassDescriptor d) ->
                        usesSharedCluster(d.getTestClass()))
                .thenComparing(d -> d.getTestClass().getName()));
  }

  static boolean usesSharedCluster(Class<?> test) {
    for (Field f : test.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())
          && SharedClusterExtension.class.isAssignableFrom(f.getType())) {
        return true;
      }
    }
    return false;
  }
}
