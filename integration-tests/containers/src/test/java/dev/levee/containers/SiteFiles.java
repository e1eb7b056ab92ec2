package dev.levee.containers;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Writes a *-site.xml as an operator keeps it: the cluster's own settings, then every line of
 * Levee's sample file for it (from the distribution's conf/, unchanged), then the values this
 * cluster sizes differently from the sample (a pool that fits the node's /dev/shm, test timeouts).
 */
final class SiteFiles {
  private SiteFiles() {}

  static void write(
      Path file, Map<String, String> cluster, Path leveeSample, Map<String, String> overrides)
      throws IOException {
    Configuration conf = new Configuration(false);
    cluster.forEach(conf::set);
    if (leveeSample != null) {
      Configuration sample = new Configuration(false);
      sample.addResource(new org.apache.hadoop.fs.Path(leveeSample.toUri()));
      for (Map.Entry<String, String> e : sample) {
        conf.set(e.getKey(), e.getValue());
      }
    }
    overrides.forEach(conf::set);
    try (OutputStream out = Files.newOutputStream(file)) {
      conf.writeXml(out);
    }
  }
}
