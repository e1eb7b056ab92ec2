package dev.levee.bench.hadoop.median.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.pig.SpongeBagFactory;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;

class PigBagsTest {
  @Test
  void spongeFilesAddTheReadmesLinesToStocksAndNothingElse() {
    Configuration job = new Configuration(false);
    job.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx128m -XX:+UseSerialGC");
    job.set(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, "0.5");
    Properties stock = PigBags.stock(job, "0.2");
    Properties sponge = PigBags.spongeFiles(job, "0.2");

    assertEquals("0.2", stock.getProperty(PigBags.MEMUSAGE));
    assertEquals("-Xmx128m -XX:+UseSerialGC", stock.getProperty(MRJobConfig.REDUCE_JAVA_OPTS));
    assertFalse(stock.containsKey("pig.cachedbag.type"));

    String reduceOpts = sponge.getProperty(MRJobConfig.REDUCE_JAVA_OPTS);
    assertTrue(reduceOpts.startsWith("-Xmx128m -XX:+UseSerialGC "), reduceOpts);
    assertTrue(
        reduceOpts.contains("-Dpig.data.bag.factory.name=" + SpongeBagFactory.class.getName()));
    assertTrue(reduceOpts.contains("-Dpig.data.bag.factory.jar=file:"), reduceOpts);
    assertTrue(
        sponge.getProperty(MRJobConfig.MAP_JAVA_OPTS).contains("-Dpig.data.bag.factory.name="));
    for (String kind : new String[] {"type", "sort.type", "distinct.type"}) {
      assertEquals("default", sponge.getProperty("pig.cachedbag." + kind));
    }
    Properties rest = new Properties();
    rest.putAll(sponge);
    for (String key :
        new String[] {
          MRJobConfig.MAP_JAVA_OPTS,
          MRJobConfig.REDUCE_JAVA_OPTS,
          "pig.cachedbag.type",
          "pig.cachedbag.sort.type",
          "pig.cachedbag.distinct.type"
        }) {
      rest.remove(key);
    }
    Properties stockRest = new Properties();
    stockRest.putAll(stock);
    stockRest.remove(MRJobConfig.REDUCE_JAVA_OPTS);
    assertEquals(stockRest, rest, "the same heap, shuffle and bag share as stock");
  }
}
