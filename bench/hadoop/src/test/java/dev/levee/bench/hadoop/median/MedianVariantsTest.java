package dev.levee.bench.hadoop.median;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;

class MedianVariantsTest {
  private static Map<String, String> asMap(Configuration c) {
    Map<String, String> m = new HashMap<>();
    c.forEach(e -> m.put(e.getKey(), e.getValue()));
    return m;
  }

  @Test
  void stockTunedChangesOnlyTheOperatorsSettingsAtTheSameHeap() {
    Configuration base = new Configuration(false);
    base.setInt(MRJobConfig.IO_SORT_FACTOR, 10);
    Configuration stock = MedianVariants.stock(base, 24);
    Configuration tuned = MedianVariants.stockTuned(stock);

    assertEquals(100, tuned.getInt(MRJobConfig.IO_SORT_FACTOR, 0));
    assertEquals(null, tuned.get(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT), "stock's 0 kept");
    assertEquals(0.9f, tuned.getFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0));
    assertEquals(0, tuned.getInt(MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD, -1));
    assertTrue(tuned.getBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, false));
    assertEquals(SnappyCodec.class.getName(), tuned.get(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC));

    Map<String, String> same = asMap(tuned);
    same.keySet()
        .removeAll(
            java.util.List.of(
                MRJobConfig.IO_SORT_FACTOR,
                MRJobConfig.SHUFFLE_MERGE_PERCENT,
                MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD,
                MRJobConfig.MAP_OUTPUT_COMPRESS,
                MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC));
    Map<String, String> rest = asMap(stock);
    rest.remove(MRJobConfig.IO_SORT_FACTOR);
    assertEquals(rest, same, "heap, shuffle buffer and everything else as in stock");
    assertEquals(stock.get(MRJobConfig.REDUCE_JAVA_OPTS), tuned.get(MRJobConfig.REDUCE_JAVA_OPTS));
    assertTrue(MedianVariants.tuning().contains("io.sort.factor=100"));
  }

  @Test
  void spongeFilesChangesOnlyTheShuffleConsumer() {
    Configuration stock = MedianVariants.stock(new Configuration(false), 24);
    Map<String, String> sponge = asMap(MedianVariants.spongeFiles(stock));
    assertTrue(sponge.remove(MRConfig.SHUFFLE_CONSUMER_PLUGIN) != null);
    assertEquals(asMap(stock), sponge);
  }
}
