package dev.levee.it.themis;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The paper's Click-Sessions job: clicks grouped by user, each user's clicks in time order (a
 * secondary sort on "user TAB zero-padded timestamp"), and a session ends after 30 quiet minutes.
 * Output per session: user, start, end, clicks, first url, last url.
 */
final class ClickSessions {
  static final long GAP_MS = 30 * 60 * 1000;

  private ClickSessions() {}

  static final class ByUserThenTime extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text url = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] f = line.toString().split("\t");
      key.set(f[1] + "\t" + String.format("%019d", Long.parseLong(f[0])));
      url.set(f[2]);
      context.write(key, url);
    }
  }

  /** Everything before the TAB: the user. */
  static int userLength(byte[] b, int start, int length) {
    for (int i = 0; i < length; i++) {
      if (b[start + i] == '\t') {
        return i;
      }
    }
    return length;
  }

  static final class UserPartitioner extends Partitioner<Text, Text> {
    @Override
    public int getPartition(Text key, Text url, int partitions) {
      int n = userLength(key.getBytes(), 0, key.getLength());
      return (WritableComparator.hashBytes(key.getBytes(), n) & Integer.MAX_VALUE) % partitions;
    }
  }

  /** Groups by user only, on the serialized Text (vint length, then UTF-8 bytes). */
  static final class UserGrouping implements RawComparator<Text> {
    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int h1 = WritableUtils.decodeVIntSize(b1[s1]);
      int h2 = WritableUtils.decodeVIntSize(b2[s2]);
      return WritableComparator.compareBytes(
          b1,
          s1 + h1,
          userLength(b1, s1 + h1, l1 - h1),
          b2,
          s2 + h2,
          userLength(b2, s2 + h2, l2 - h2));
    }

    @Override
    public int compare(Text a, Text b) {
      return compare(a.getBytes(), 0, a.getLength(), b.getBytes(), 0, b.getLength());
    }
  }

  static final class Sessions extends Reducer<Text, Text, Text, NullWritable> {
    private final Text out = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> urls, Context context)
        throws IOException, InterruptedException {
      String user = null;
      long start = -1;
      long last = -1;
      int clicks = 0;
      String firstUrl = null;
      String lastUrl = null;
      for (Text url : urls) {
        // The key object advances with the values: it holds the current click's timestamp.
        String[] k = key.toString().split("\t");
        long ts = Long.parseLong(k[1]);
        if (last >= 0 && ts < last) {
          throw new IOException("clicks of " + k[0] + " out of time order: " + ts + " < " + last);
        }
        if (start >= 0 && ts - last >= GAP_MS) {
          emit(context, user, start, last, clicks, firstUrl, lastUrl);
          start = -1;
        }
        if (start < 0) {
          start = ts;
          clicks = 0;
          firstUrl = url.toString();
        }
        user = k[0];
        last = ts;
        clicks++;
        lastUrl = url.toString();
      }
      emit(context, user, start, last, clicks, firstUrl, lastUrl);
    }

    private void emit(
        Context context, String user, long start, long end, int clicks, String first, String last)
        throws IOException, InterruptedException {
      out.set(user + "\t" + start + "\t" + end + "\t" + clicks + "\t" + first + "\t" + last);
      context.write(out, NullWritable.get());
    }
  }

  static void configure(Job job) {
    job.setJobName("click-sessions");
    job.setJarByClass(ClickSessions.class);
    job.setMapperClass(ByUserThenTime.class);
    job.setReducerClass(Sessions.class);
    job.setPartitionerClass(UserPartitioner.class);
    job.setGroupingComparatorClass(UserGrouping.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
  }
}
