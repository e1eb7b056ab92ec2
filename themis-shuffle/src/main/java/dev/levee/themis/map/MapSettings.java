package dev.levee.themis.map;

import dev.levee.config.ConfigSource;
import dev.levee.themis.OutputOrder;
import dev.levee.themis.Overflow;
import dev.levee.themis.ThemisConf;

/** The map-side settings of one task, read once through {@link ThemisConf}. */
record MapSettings(
    long budget, int writeBuffer, OutputOrder order, boolean combine, Overflow overflow) {

  static MapSettings from(ConfigSource conf, long maxHeap) {
    long size = ThemisConf.MAP_BUFFER_SIZE.from(conf);
    long budget = size > 0 ? size : (long) (maxHeap * ThemisConf.MAP_BUFFER_FRACTION.from(conf));
    return new MapSettings(
        budget,
        ThemisConf.MAP_WRITE_BUFFER.from(conf),
        ThemisConf.MAP_OUTPUT_ORDER.from(conf),
        ThemisConf.MAP_COMBINE.from(conf),
        ThemisConf.MAP_OVERFLOW.from(conf));
  }
}
