package dev.levee.piranha.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForcedSettingsTest {
  @TempDir Path dir;

  @Test
  void siteValuesAreOverriddenAndNamed() throws Exception {
    Path site = dir.resolve("mapred-site.xml");
    Files.writeString(
        site,
        "<configuration>"
            + "<property><name>mapreduce.job.ubertask.enable</name><value>true</value></property>"
            + "<property><name>mapreduce.map.speculative</name><value>true</value></property>"
            + "<property><name>mapreduce.fileoutputcommitter.algorithm.version</name><value>2</value></property>"
            + "</configuration>",
        StandardCharsets.UTF_8);
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(site.toString()));
    assertTrue(
        conf.getBoolean("mapreduce.job.ubertask.enable", false), "the site file turns uber on");

    List<String> overridden = ForcedSettings.apply(conf);

    assertTrue(
        overridden.containsAll(
            List.of(
                "mapreduce.job.ubertask.enable",
                "mapreduce.map.speculative",
                "mapreduce.fileoutputcommitter.algorithm.version")),
        overridden.toString());
    assertEquals("false", conf.get("mapreduce.job.ubertask.enable"));
    assertEquals("false", conf.get("mapreduce.map.speculative"));
    assertEquals("1", conf.get("mapreduce.map.maxattempts"));
    assertEquals("1", conf.get("mapreduce.am.max-attempts"));
    assertEquals("1", conf.get("mapreduce.fileoutputcommitter.algorithm.version"));
    assertEquals("0", conf.get("mapreduce.job.reduces"));
  }

  @Test
  void aConflictingValueTheUserSetIsRefusedNamingTheKey() {
    Configuration conf = new Configuration();
    conf.setBoolean("mapreduce.map.speculative", true);
    ConfigException e = assertThrows(ConfigException.class, () -> ForcedSettings.apply(conf));
    assertEquals("mapreduce.map.speculative", e.key());
    assertTrue(e.getMessage().contains("expected false for a Piranha job"), e.getMessage());

    Configuration uber = new Configuration();
    uber.setBoolean("mapreduce.job.ubertask.enable", true);
    ConfigException u = assertThrows(ConfigException.class, () -> ForcedSettings.apply(uber));
    assertTrue(u.getMessage().contains("mapreduce.job.ubertask.enable"), u.getMessage());
  }

  @Test
  void agreeingUserValuesAreFine() {
    Configuration conf = new Configuration();
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setInt("mapreduce.map.maxattempts", 1);
    ForcedSettings.apply(conf);
    assertEquals("false", conf.get("mapreduce.map.speculative"));
  }

  @Test
  void encryptedIntermediateDataIsRefused() {
    Configuration conf = new Configuration();
    conf.setBoolean("mapreduce.job.encrypted-intermediate-data", true);
    ConfigException e = assertThrows(ConfigException.class, () -> ForcedSettings.apply(conf));
    assertTrue(e.getMessage().contains("unencrypted"), e.getMessage());
  }
}
