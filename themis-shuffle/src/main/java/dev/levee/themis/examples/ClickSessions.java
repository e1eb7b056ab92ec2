package dev.levee.themis.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
 * The ThemisMR paper's Click-Sessions job over "timestamp TAB user TAB url" lines: the map keys
 * each click by "user TAB zero-padded timestamp" (the paper's secondary key), partitions and groups
 * by user alone, so the reduce sees each user's clicks in time order and cuts them into sessions at
 * quiet gaps of 30 minutes or more. Output per session: user, start, end, clicks, first url, last
 * url. A stock job in every respect (a partitioner and a raw grouping comparator of its own): the
 * bench and the integration tests run it as it is, stock and under Themis.
 */
public final class ClickSessions {
  /** A click this long or longer after the previous one starts a new session. */
  public static final long GAP_MS = 30 * 60 * 1000;

  private ClickSessions() {}

  /**
   * The job's mapper, partitioner, grouping, reducer and types; input, output and name are the
   * caller's.
   */
  public static void configure(Job job) {
    job.setMapperClass(ByUserThenTime.class);
    job.setPartitionerClass(UserPartitioner.class);
    job.setGroupingComparatorClass(UserGrouping.class);
    job.setReducerClass(Sessions.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
  }

  /** Length of the user part of a "user TAB timestamp" key. */
  static int userLength(byte[] b, int start, int length) {
    for (int i = 0; i < length; i++) {
      if (b[start + i] == '\t') {
        return i;
      }
    }
    return length;
  }

  /**
   * One user's clicks, fed in time order, cut into sessions: a click {@link #GAP_MS} or more after
   * the previous one starts a new session.
   */
  public static final class SessionCutter {
    private long start = -1;
    private long last = -1;
    private int clicks;
    private String firstUrl;
    private String lastUrl;

    /** Adds a click; returns the session it closed, or null. */
    public String add(String user, long ts, String url) throws IOException {
      if (last >= 0 && ts < last) {
        throw new IOException("clicks of " + user + " out of time order: " + ts + " < " + last);
      }
      String closed = null;
      if (start >= 0 && ts - last >= GAP_MS) {
        closed = finish(user);
      }
      if (start < 0) {
        start = ts;
        clicks = 0;
        firstUrl = url;
      }
      last = ts;
      clicks++;
      lastUrl = url;
      return closed;
    }

    /** The open session as "user TAB start TAB end TAB clicks TAB first url TAB last url". */
    public String finish(String user) {
      String s =
          user + "\t" + start + "\t" + last + "\t" + clicks + "\t" + firstUrl + "\t" + lastUrl;
      start = -1;
      return s;
    }
  }

  /** "ts TAB user TAB url" to ("user TAB 19-digit ts", url). */
  public static final class ByUserThenTime extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text url = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] f = line.toString().split("\t", -1);
      key.set(f[1] + "\t" + String.format(Locale.ROOT, "%019d", Long.parseLong(f[0])));
      url.set(f[2]);
      context.write(key, url);
    }
  }

  /** By the user part of the key alone: every click of a user reaches one reducer. */
  public static final class UserPartitioner extends Partitioner<Text, Text> {
    @Override
    public int getPartition(Text key, Text url, int partitions) {
      int n = userLength(key.getBytes(), 0, key.getLength());
      return (WritableComparator.hashBytes(key.getBytes(), n) & Integer.MAX_VALUE) % partitions;
    }
  }

  /** Groups by user only, on the serialized Text (vint length, then the bytes). */
  public static final class UserGrouping implements RawComparator<Text> {
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
      return WritableComparator.compareBytes(
          a.getBytes(),
          0,
          userLength(a.getBytes(), 0, a.getLength()),
          b.getBytes(),
          0,
          userLength(b.getBytes(), 0, b.getLength()));
    }
  }

  /** One user's clicks in time order, as sessions. */
  public static final class Sessions extends Reducer<Text, Text, Text, NullWritable> {
    private final Text out = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> urls, Context context)
        throws IOException, InterruptedException {
      SessionCutter cutter = new SessionCutter();
      String user = null;
      for (Text url : urls) {
        // The key object advances with the values: it holds the current click's timestamp.
        int n = userLength(key.getBytes(), 0, key.getLength());
        user = new String(key.getBytes(), 0, n, StandardCharsets.UTF_8);
        long ts =
            Long.parseLong(
                new String(
                    key.getBytes(), n + 1, key.getLength() - n - 1, StandardCharsets.US_ASCII));
        String closed = cutter.add(user, ts, url.toString());
        if (closed != null) {
          emit(context, closed);
        }
      }
      emit(context, cutter.finish(user));
    }

    private void emit(Context context, String session) throws IOException, InterruptedException {
      out.set(session);
      context.write(out, NullWritable.get());
    }
  }
}
