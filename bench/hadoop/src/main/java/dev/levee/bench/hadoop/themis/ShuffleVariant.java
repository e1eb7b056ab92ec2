package dev.levee.bench.hadoop.themis;

import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/** The three ways the suite runs the same job: the stock, tuned stock, and Themis. */
enum ShuffleVariant {
  /** Hadoop's defaults for everything but the task heaps, which all variants share. */
  STOCK_DEFAULT("stock-default") {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      return new Configuration(base);
    }
  },
  /**
   * What an expert sets for the fewest intermediate I/Os: a sort buffer that holds a map's whole
   * output (one spill, no map-side merge), a wide merge, and reducers that keep the shuffled
   * segments in memory and feed them to reduce() instead of writing them out first
   * (mapreduce.reduce.input.buffer.percent).
   */
  STOCK_TUNED("stock-tuned") {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      Configuration c = new Configuration(base);
      c.setInt(MRJobConfig.IO_SORT_MB, mapOutputMb);
      c.setFloat(MRJobConfig.MAP_SORT_SPILL_PERCENT, 0.99f);
      c.setInt(MRJobConfig.IO_SORT_FACTOR, 100);
      c.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.80f);
      c.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0.99f);
      c.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0.50f);
      c.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.80f);
      return c;
    }
  },
  /** The two keys of mapred-site.xml that switch Themis on; its own defaults otherwise. */
  THEMIS("themis") {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      Configuration c = new Configuration(base);
      c.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
      c.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
      return c;
    }
  };

  final String label;

  ShuffleVariant(String label) {
    this.label = label;
  }

  /**
   * @param mapOutputMb what one map writes (framed), for the tuned sort buffer
   */
  abstract Configuration apply(Configuration base, int mapOutputMb);
}
