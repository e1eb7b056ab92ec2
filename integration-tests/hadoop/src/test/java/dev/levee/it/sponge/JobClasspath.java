package dev.levee.it.sponge;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Splits the test JVM's classpath the way a real cluster splits it: what the cluster installs
 * (Hadoop and its dependencies, for {@code mapreduce.application.classpath}), the packaged
 * SpongeFiles plugin jar (for {@code -libjars}), and the job's own classes (for the job jar).
 */
final class JobClasspath {
  private final List<String> framework;
  private final Path pluginJar;
  private final Path testClasses;

  private JobClasspath(List<String> framework, Path pluginJar, Path testClasses) {
    this.framework = framework;
    this.pluginJar = pluginJar;
    this.testClasses = testClasses;
  }

  static JobClasspath fromTestJvm() {
    List<String> framework = new ArrayList<>();
    Path plugin = null;
    Path tests = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath();
      String name = p.getFileName().toString();
      if (name.startsWith("spongefiles-hadoop") && name.endsWith(".jar")) {
        plugin = p;
      } else if (p.endsWith(Path.of("spongefiles-hadoop", "target", "classes"))) {
        throw new IllegalStateException(
            "the plugin is on the test classpath as "
                + p
                + ", not as its packaged jar;"
                + " run with 'verify' after installing spongefiles-hadoop");
      } else if (p.endsWith(Path.of("target", "test-classes"))) {
        tests = p;
      } else {
        framework.add(p.toString());
      }
    }
    if (plugin == null || tests == null) {
      throw new IllegalStateException(
          "cannot find the spongefiles-hadoop jar ("
              + plugin
              + ") and this module's test"
              + " classes ("
              + tests
              + ") on java.class.path");
    }
    return new JobClasspath(List.copyOf(framework), plugin, tests);
  }

  List<String> framework() {
    return framework;
  }

  Path pluginJar() {
    return pluginJar;
  }

  /**
   * A job jar with the classes of {@code jobClass}'s package (the job, its mapper and reducer),
   * nothing else.
   */
  Path writeJobJar(Path jar, Class<?> jobClass) throws IOException {
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
