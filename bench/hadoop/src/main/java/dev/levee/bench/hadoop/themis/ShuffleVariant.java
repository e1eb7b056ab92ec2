package dev.levee.bench.hadoop.themis;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.report.Charts;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import java.awt.Color;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The ways the suite runs the same job: the stock, tuned stock and Themis at the job's
 * reducer count, and tuned stock and Themis at the reducer count Themis's phase 0 chooses.
 */
enum ShuffleVariant {
  /** Hadoop's defaults for everything but the task heaps, which all variants share. */
  STOCK_DEFAULT("stock-default", false, false, Charts.STOCK) {
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
  STOCK_TUNED("stock-tuned", false, false, Charts.STOCK.darker()) {
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
  THEMIS("themis", true, false, Charts.PLUGIN) {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      Configuration c = new Configuration(base);
      c.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
      c.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
      return c;
    }
  },
  /**
   * stock-tuned with the reducer count (and split size, if any) phase 0 chooses for Themis: raising
   * the reducer count until each partition fits the reducers' memory is what an operator does
   * first.
   */
  STOCK_TUNED_PLANNED("stock-tuned-planned", false, true, Charts.STOCK.darker().darker()) {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      return STOCK_TUNED.apply(base, mapOutputMb);
    }
  },
  /**
   * Themis with phase 0 run before the job (ThemisPlanner.apply, what mapreduce.framework.name =
   * levee-themis does inside submission): its reducer count, byte-weighted partitions and split
   * size; phase 0's time counts in the job's.
   */
  THEMIS_PLANNED("themis-planned", true, true, Charts.PLUGIN.darker()) {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      return THEMIS.apply(base, mapOutputMb);
    }
  },
  /**
   * Themis with the same map buffer as stock-tuned's io.sort.mb instead of its default share of the
   * heap: the two spend equal memory. Themis keeps 20 bytes of index per record against stock's 16,
   * so where stock-tuned's buffer is capped (0.6 of the heap) and only just holds a map of many
   * small records, Themis's overflows at equal memory (5grams at 8x: about 4 million records per
   * map, some 15 MB more).
   */
  THEMIS_EQUAL_MEMORY("themis-equal-memory", true, false, Charts.PLUGIN.brighter()) {
    @Override
    Configuration apply(Configuration base, int mapOutputMb) {
      Configuration c = THEMIS.apply(base, mapOutputMb);
      c.setLong(ThemisConf.MAP_BUFFER_SIZE.name(), (long) mapOutputMb << 20);
      return c;
    }
  };

  /** What the suite runs unless told otherwise: the three variants. */
  static final String DEFAULT_SELECTION = "stock-default,stock-tuned,themis";

  final String label;

  /** Runs Themis's collector and shuffle. */
  final boolean themis;

  /** Runs at phase 0's reducer count instead of the job's. */
  final boolean planned;

  /** The variant in figures: stock in greys, Themis in blues, as in every figure of the report. */
  final Color colour;

  ShuffleVariant(String label, boolean themis, boolean planned, Color colour) {
    this.label = label;
    this.themis = themis;
    this.planned = planned;
    this.colour = colour;
  }

  /** The colour of the variant with this label in figures (black for a label no variant has). */
  static Color colour(String label) {
    return Arrays.stream(values())
        .filter(v -> v.label.equals(label))
        .map(v -> v.colour)
        .findFirst()
        .orElse(Color.BLACK);
  }

  /**
   * "all" or comma-separated labels, in declaration order whatever order they are given in; an
   * unknown or repeated label fails naming the option and what is allowed.
   */
  static List<ShuffleVariant> select(String option, String text) {
    List<String> labels = Arrays.stream(values()).map(v -> v.label).toList();
    String allowed = "all, or a comma-separated list of " + String.join(", ", labels);
    if (text.trim().equals("all")) {
      return List.of(values());
    }
    Set<ShuffleVariant> wanted = EnumSet.noneOf(ShuffleVariant.class);
    for (String part : text.split(",", -1)) {
      String label = part.trim();
      ShuffleVariant v =
          Arrays.stream(values()).filter(x -> x.label.equals(label)).findFirst().orElse(null);
      if (v == null) {
        throw new BadArgumentException(
            "--" + option + ": unknown variant '" + label + "'; allowed: " + allowed);
      }
      if (!wanted.add(v)) {
        throw new BadArgumentException("--" + option + ": '" + label + "' is given twice");
      }
    }
    return List.copyOf(wanted);
  }

  /**
   * The map-side buffer this variant's configuration gives a map task of {@code heapMb}, in MB:
   * io.sort.mb for stock, Themis's map buffer for Themis. Each result line records it, so a reader
   * sees which arm had the larger buffer.
   */
  static double mapBufferMb(ShuffleVariant v, Configuration c, int heapMb) {
    if (!v.themis) {
      return c.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB);
    }
    long size = c.getLong(ThemisConf.MAP_BUFFER_SIZE.name(), 0);
    return size > 0
        ? size / (double) (1 << 20)
        : heapMb
            * c.getDouble(
                ThemisConf.MAP_BUFFER_FRACTION.name(),
                ThemisConf.MAP_BUFFER_FRACTION.defaultValue());
  }

  /**
   * @param mapOutputMb what one map writes (framed), for the tuned sort buffer
   */
  abstract Configuration apply(Configuration base, int mapOutputMb);
}
