package dev.levee.it.hadoop;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Splits the test JVM's classpath the way a real cluster splits it: what the cluster installs
 * (Hadoop and its dependencies, for {@code mapreduce.application.classpath}), a packaged Levee
 * plugin jar (for {@code -libjars}), and the job's own classes (for the job jar). Jars named in
 * {@code userJars} (a job's own jar, say) are kept off the cluster's part too.
 */
public final class JobClasspath {
  private final List<String> framework;
  private final Path pluginJar;
  private final Path testClasses;

  private JobClasspath(List<String> framework, Path pluginJar, Path testClasses) {
    this.framework = framework;
    this.pluginJar = pluginJar;
    this.testClasses = testClasses;
  }

  /** The classpath split for {@code plugin}, the plugin module's artifact id. */
  public static JobClasspath fromTestJvm(String plugin, String... userJars) {
    List<String> framework = new ArrayList<>();
    Path pluginJar = null;
    Path tests = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath();
      String name = p.getFileName().toString();
      if (name.startsWith(plugin) && name.endsWith(".jar")) {
        pluginJar = p;
      } else if (p.endsWith(Path.of(plugin, "target", "classes"))) {
        throw new IllegalStateException(
            "the plugin is on the test classpath as "
                + p
                + ", not as its packaged jar;"
                + " run with 'verify' after installing "
                + plugin);
      } else if (p.endsWith(Path.of("target", "test-classes"))) {
        tests = p;
      } else if (Arrays.stream(userJars).noneMatch(name::startsWith)) {
        framework.add(p.toString());
      }
    }
    if (pluginJar == null || tests == null) {
      throw new IllegalStateException(
          "cannot find the "
              + plugin
              + " jar ("
              + pluginJar
              + ") and this module's test"
              + " classes ("
              + tests
              + ") on java.class.path");
    }
    return new JobClasspath(List.copyOf(framework), pluginJar, tests);
  }

  /** The jars a cluster installs, for {@code mapreduce.application.classpath}. */
  public List<String> framework() {
    return framework;
  }

  public Path pluginJar() {
    return pluginJar;
  }

  /**
   * A job jar with the classes of {@code jobClass}'s package (the job, its mapper and reducer),
   * nothing else.
   */
  public Path writeJobJar(Path jar, Class<?> jobClass) throws IOException {
    Path packageDir = testClasses.resolve(jobClass.getPackageName().replace('.', '/'));
    Files.createDirectories(jar.toAbsolutePath().getParent());
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> classes = Files.list(packageDir)) {
      for (Path c :
          (Iterable<Path>)
              classes.filter(f -> f.getFileName().toString().startsWith(jobClass.getSimpleName()))
                  ::iterator) {
        out.putNextEntry(
            new JarEntry(testClasses.relativize(c).toString().replace(File.separatorChar, '/')));
        Files.copy(c, out);
        out.closeEntry();
      }
    }
    return jar.toAbsolutePath();
  }
}
