package dev.levee.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sample configuration shipped in the distribution is what an operator pastes: every Levee key
 * in it must be one the plugin knows, with a value the plugin accepts, and every class it names
 * must be in the jars shipped beside it.
 */
class SampleConfigTest {
  private static final List<String> FILES =
      List.of(
          "yarn-site.xml",
          "mapred-site.xml",
          "mapred-site.themis.xml",
          "piranha-site.xml",
          "spark-defaults.conf",
          "spark-defaults.hurricane.conf",
          "pig.properties");

  /** Settings whose value is a class the cluster loads from a Levee jar. */
  private static final List<String> CLASS_KEYS =
      List.of(
          "mapreduce.job.reduce.shuffle.consumer.plugin.class",
          "mapreduce.job.map.output.collector.class",
          "spark.shuffle.manager",
          "spark.plugins");

  private static List<RegistryCheck> registries() throws ReflectiveOperationException {
    return List.of(new RegistryCheck("levee.sponge.", "dev.levee.sponge.config.SpongeConf"));
  }

  @Test
  void everySampleFileIsShippedAndParses() throws Exception {
    for (String f : FILES) {
      Path p = SampleConfigs.DIR.resolve(f);
      assertTrue(Files.isRegularFile(p), p + " is missing");
      assertFalse(SampleConfigs.read(p).isEmpty(), p + " sets nothing");
    }
  }

  @Test
  void everyLeveeKeyIsKnownAndItsValueAccepted() throws Exception {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (String f : FILES) {
      Map<String, String> settings = SampleConfigs.read(SampleConfigs.DIR.resolve(f));
      for (RegistryCheck r : registries()) {
        problems.addAll(r.problems(f, settings));
        checked += (int) settings.keySet().stream().filter(k -> k.startsWith(r.prefix())).count();
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(
        checked >= 7, "the samples set " + checked + " Levee keys; expected the documented ones");
  }

  @Test
  void theCheckRejectsATypoAndABadValueNamingTheKey() throws Exception {
    RegistryCheck sponge = registries().get(0);
    Map<String, String> typo = new LinkedHashMap<>();
    typo.put("levee.sponge.local.pool.sise", "4g");
    assertEquals(
        List.of(
            "t: unknown setting levee.sponge.local.pool.sise is ignored;"
                + " did you mean levee.sponge.local.pool.size?"),
        sponge.problems("t", typo));
    Map<String, String> bad = Map.of("levee.sponge.local.pool.size", "lots");
    List<String> problems = sponge.problems("t", bad);
    assertEquals(1, problems.size());
    assertTrue(problems.get(0).contains("levee.sponge.local.pool.size='lots'"), problems.get(0));
  }

  @Test
  void everyClassTheSamplesNameIsInTheShippedJars() throws Exception {
    List<String> named = new ArrayList<>();
    for (String f : FILES) {
      Map<String, String> settings = SampleConfigs.read(SampleConfigs.DIR.resolve(f));
      settings.forEach(
          (k, v) -> {
            boolean auxClass =
                k.startsWith("yarn.nodemanager.aux-services.") && k.endsWith(".class");
            if (auxClass || CLASS_KEYS.contains(k)) {
              named.add(v);
            }
          });
      String aux = settings.get("yarn.nodemanager.aux-services");
      if (aux != null) {
        for (String service : aux.split(",")) {
          String s = service.trim();
          assertTrue(
              s.equals("mapreduce_shuffle")
                  || settings.containsKey("yarn.nodemanager.aux-services." + s + ".class"),
              f + " lists aux service " + s + " without its .class");
        }
      }
    }
    assertTrue(named.size() >= 3, "classes named: " + named);
    for (String cls : named) {
      // The class's own bytes, not Class.forName: its superclasses are the framework's (provided).
      assertNotNull(
          getClass().getClassLoader().getResource(cls.replace('.', '/') + ".class"),
          cls + " is named by a sample but is in none of the plugin jars");
    }
  }

  @Test
  void jarPathsInTheSamplesNameTheJarsTheDistributionShips() throws Exception {
    String version = System.getProperty("levee.version", "0.1.0-SNAPSHOT");
    List<String> shipped =
        Stream.of(
                "spongefiles-hadoop",
                "leaky-buffer-spark",
                "themis-shuffle",
                "piranha-dag",
                "hurricane-spark")
            .map(a -> "/opt/levee/jars/" + a + "-" + version + ".jar")
            .toList();
    for (String f : FILES) {
      for (String v : SampleConfigs.read(SampleConfigs.DIR.resolve(f)).values()) {
        for (String part : v.split(",")) {
          if (part.contains("/opt/levee/jars/")) {
            assertTrue(
                shipped.contains(part.trim()), f + " names " + part + "; shipped: " + shipped);
          }
        }
      }
    }
  }
}
