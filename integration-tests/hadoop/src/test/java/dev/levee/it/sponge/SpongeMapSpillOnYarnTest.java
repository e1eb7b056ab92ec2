package dev.levee.it.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.Tier;
import dev.levee.sponge.hadoop.SpongeMapOutputCollector;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Map-side spills into SpongeFiles on YARN ({@link SpongeCluster}: the sponge aux service on every
 * NodeManager): two maps of about 6 MB of output each through a 1 MB sort buffer, run with the
 * stock map output buffer and with {@link SpongeMapOutputCollector}. The output must be the same,
 * the runs must be in the sponges and not on local disk, and each map's own local-disk counters
 * must show the spill files stock wrote and read back.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SpongeMapSpillOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = SpongeCluster.SHARED;

  private static final Logger LOG = LoggerFactory.getLogger(SpongeMapSpillOnYarnTest.class);
  private static final int MAPS = 2;
  private static final long RECORDS_PER_MAP = 6_000;
  private static final int VALUE_BYTES = 1_000;
  private static final int SORT_FACTOR = 3;

  @Test
  void mapsSpillIntoSpongesNotLocalDiskAndMatchStock() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/sponge-map/in");
    SkewedShuffleJob.writeInput(fs, input, MAPS);

    // Both at once (the cluster has room for both): the figures are per task, so they do not mix.
    Job stock = job(cluster.clientConf(), input, "stock");
    Configuration withSponge = cluster.clientConf();
    withSponge.set(
        MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, SpongeMapOutputCollector.class.getName());
    Job sponge = job(withSponge, input, "sponge");
    stock.submit();
    sponge.submit();
    assertTrue(stock.waitForCompletion(false), "stock job failed");
    assertTrue(sponge.waitForCompletion(false), "sponge job failed");

    List<String> expected = ClusterFiles.readOutput(fs, new Path("/it/sponge-map/out-stock"));
    assertTrue(expected.size() > 1_000, "stock output has " + expected.size() + " keys");
    assertEquals(
        expected,
        ClusterFiles.readOutput(fs, new Path("/it/sponge-map/out-sponge")),
        "output equals stock");

    Counters c = sponge.getCounters();
    assertEquals(0, sponge(c, SpongeCounters.Counter.MAP_FALLBACKS), "no map fell back");
    long spills = sponge(c, SpongeCounters.Counter.MAP_SPILLS);
    assertTrue(spills >= 3L * MAPS, "each map spilled several runs: " + spills);
    assertEquals(MAPS, sponge(c, SpongeCounters.Counter.MAP_MERGE_ROUNDS), "one round per map");
    long spillBytes = sponge(c, SpongeCounters.Counter.MAP_SPILL_BYTES);
    long inMemory =
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY))
            + sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.REMOTE_MEMORY));
    assertEquals(spillBytes, inMemory, "every run in local or remote sponge memory");
    assertEquals(0, sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK)));

    // Each map's own counters (one JVM per task here, so the local file-system figures are its
    // own): stock wrote its spills to local disk, merged them in rounds of SORT_FACTOR and read
    // them back; the sponge map wrote file.out and its index only.
    MapFigures stockMaps = MapFigures.of(stock);
    MapFigures spongeMaps = MapFigures.of(sponge);
    LOG.info(
        "map-side spills on YARN, per map (mean of {}): local bytes written stock {} vs SpongeFiles"
            + " {}, read stock {} vs {}, spilled records stock {} vs {}; runs into SpongeFiles: {}"
            + " of {} bytes; materialized output {} bytes",
        MAPS,
        stockMaps.written / MAPS,
        spongeMaps.written / MAPS,
        stockMaps.read / MAPS,
        spongeMaps.read / MAPS,
        stockMaps.spilledRecords / MAPS,
        spongeMaps.spilledRecords / MAPS,
        spills / MAPS,
        spillBytes / MAPS,
        spongeMaps.materialized / MAPS);
    assertEquals(stockMaps.materialized, spongeMaps.materialized, "file.out the same size");
    assertTrue(
        stockMaps.written - spongeMaps.written >= spillBytes * 9 / 10,
        "stock maps wrote the runs to local disk: "
            + stockMaps.written
            + " vs "
            + spongeMaps.written);
    assertTrue(
        stockMaps.read - spongeMaps.read >= spillBytes * 9 / 10,
        "stock maps read the runs back: " + stockMaps.read + " vs " + spongeMaps.read);
    assertTrue(
        stockMaps.spilledRecords > spongeMaps.spilledRecords,
        "stock merged in more than one round");
    SpongeCluster.assertPoolsEmpty(cluster);
  }

  private static Job job(Configuration conf, Path input, String name) throws Exception {
    conf.setInt(MRJobConfig.IO_SORT_MB, 1);
    conf.setInt(MRJobConfig.IO_SORT_FACTOR, SORT_FACTOR);
    return SkewedShuffleJob.configure(
        Job.getInstance(conf, "sponge-map-spill-" + name),
        input,
        new Path("/it/sponge-map/out-" + name),
        RECORDS_PER_MAP,
        VALUE_BYTES);
  }

  private static long sponge(Counters c, SpongeCounters.Counter counter) {
    return sponge(c, counter.counterName());
  }

  private static long sponge(Counters c, String name) {
    return c.findCounter(SpongeCounters.GROUP, name).getValue();
  }

  /** Local file-system and spill figures summed over a job's maps, from each map's counters. */
  private record MapFigures(long written, long read, long spilledRecords, long materialized) {
    static MapFigures of(Job job) throws Exception {
      long written = 0;
      long read = 0;
      long spilled = 0;
      long materialized = 0;
      for (TaskReport r : job.getTaskReports(TaskType.MAP)) {
        Counters c = r.getTaskCounters();
        written += c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue();
        read += c.findCounter("file", FileSystemCounter.BYTES_READ).getValue();
        spilled += c.findCounter(TaskCounter.SPILLED_RECORDS).getValue();
        materialized += c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue();
      }
      return new MapFigures(written, read, spilled, materialized);
    }
  }
}
