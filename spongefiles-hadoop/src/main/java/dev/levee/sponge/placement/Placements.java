package dev.levee.sponge.placement;

import dev.levee.config.ConfigSource;
import dev.levee.sponge.config.SpongeConf;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;

/** The placement policy a client's configuration asks for. */
public final class Placements {
  private Placements() {}

  /** A new policy (one per client) from the {@code levee.sponge.placement.*} keys. */
  public static PlacementPolicy fromConf(Configuration conf) {
    return from(SpongeConf.source(conf));
  }

  public static PlacementPolicy from(ConfigSource s) {
    String name = SpongeConf.PLACEMENT_POLICY.from(s);
    if (FreeListPolicy.NAME.equals(name)) {
      return new FreeListPolicy();
    }
    return new BatchSamplingPolicy(
        SpongeConf.PLACEMENT_SAMPLE_SIZE.from(s),
        SpongeConf.PLACEMENT_WINDOW_FACTOR.from(s),
        new Random());
  }
}
