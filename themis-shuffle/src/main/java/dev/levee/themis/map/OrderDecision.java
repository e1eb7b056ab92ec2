package dev.levee.themis.map;

import dev.levee.config.ConfigException;
import dev.levee.themis.OutputOrder;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.reduce.ThemisShuffle;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * Whether a map may write its partitions unsorted. Hadoop's stock reduce-side merge assumes every
 * map output segment is sorted and merges them without checking: unsorted segments would silently
 * break grouping, so they are written only when the job's reduce side is Themis's shuffle, which
 * sorts each partition itself.
 */
final class OrderDecision {
  private OrderDecision() {}

  /** True when the partitions must be sorted before the one write. */
  static boolean mustSort(Configuration job, OutputOrder order, boolean combining) {
    boolean themisReduce = reduceSideIsThemis(job);
    switch (order) {
      case SORTED:
        return true;
      case UNSORTED:
        if (!themisReduce) {
          throw new ConfigException(
              ThemisConf.MAP_OUTPUT_ORDER.name(),
              "unsorted",
              "auto or sorted, because "
                  + MRConfig.SHUFFLE_CONSUMER_PLUGIN
                  + " is "
                  + job.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN, "Hadoop's stock Shuffle")
                  + ", whose merge needs sorted map outputs; unsorted needs "
                  + ThemisShuffle.class.getName());
        }
        return combining;
      default:
        return combining || !themisReduce;
    }
  }

  static boolean reduceSideIsThemis(Configuration job) {
    String name = job.getTrimmed(MRConfig.SHUFFLE_CONSUMER_PLUGIN);
    if (name == null || name.isEmpty()) {
      return false;
    }
    try {
      return ThemisShuffle.class.isAssignableFrom(job.getClassByName(name));
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
