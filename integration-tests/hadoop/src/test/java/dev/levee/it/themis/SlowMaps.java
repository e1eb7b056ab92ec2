package dev.levee.it.themis;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * {@link KeyStats}'s mapper, slowed down so a fault test can act while a job is in a given phase:
 * maps listed in {@value #SLOW_MAPS} (all maps when unset) sleep {@value #SLEEP_MS} ms before they
 * start.
 */
final class SlowMaps extends Mapper<LongWritable, Text, Text, Text> {
  static final String SLEEP_MS = "levee.it.map.sleep.ms";
  static final String SLOW_MAPS = "levee.it.map.slow";

  private final KeyStats.Split split = new KeyStats.Split();

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    long sleep = conf.getLong(SLEEP_MS, 0);
    int me = context.getTaskAttemptID().getTaskID().getId();
    String slow = conf.get(SLOW_MAPS, "");
    if (slow.isEmpty() || Arrays.stream(slow.split(",")).anyMatch(s -> Integer.parseInt(s) == me)) {
      Thread.sleep(sleep);
    }
    split.run(context);
  }
}
