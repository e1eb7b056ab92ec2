package dev.levee.it.piranha;

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
 * The test JVM's classpath split as a real cluster splits it: what the cluster installs (for
 * mapreduce.application.classpath), the packaged piranha-dag jar (for -libjars), and this package's
 * test classes (for the job jar).
 */
final class PiranhaJobClasspath {
  final List<String> framework;
  final Path pluginJar;
  final Path testClasses;

  private PiranhaJobClasspath(List<String> framework, Path pluginJar, Path testClasses) {
    this.framework = framework;
    this.pluginJar = pluginJar;
    this.testClasses = testClasses;
  }

  static PiranhaJobClasspath fromTestJvm() {
    List<String> framework = new ArrayList<>();
    Path plugin = null;
    Path tests = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath();
      String name = p.getFileName().toString();
      if (name.startsWith("piranha-dag") && name.endsWith(".jar")) {
        plugin = p;
      } else if (p.endsWith(Path.of("piranha-dag", "target", "classes"))) {
        throw new IllegalStateException(
            "piranha-dag is on the test classpath as "
                + p
                + ", not as its packaged jar; run 'verify'");
      } else if (p.endsWith(Path.of("target", "test-classes"))) {
        tests = p;
      } else {
        framework.add(p.toString());
      }
    }
    if (plugin == null || tests == null) {
      throw new IllegalStateException(
          "no piranha-dag jar (" + plugin + ") or test classes (" + tests + ")");
    }
    return new PiranhaJobClasspath(List.copyOf(framework), plugin, tests);
  }

  /** A job jar with this package's classes only. */
  Path writeJobJar(Path jar) throws IOException {
    Path dir = testClasses.resolve(PiranhaJobClasspath.class.getPackageName().replace('.', '/'));
    Files.createDirectories(jar.toAbsolutePath().getParent());
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> classes = Files.list(dir)) {
      for (Path c :
          (Iterable<Path>) classes.filter(f -> f.toString().endsWith(".class"))::iterator) {
        out.putNextEntry(
            new JarEntry(testClasses.relativize(c).toString().replace(File.separatorChar, '/')));
        Files.copy(c, out);
        out.closeEntry();
      }
    }
    return jar.toAbsolutePath();
  }
}
