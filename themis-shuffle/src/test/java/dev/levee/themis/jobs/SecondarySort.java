package dev.levee.themis.jobs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Secondary sort as Hadoop's example does it: a composite (first, second) key with its own raw
 * comparator, a partitioner and a grouping comparator on the first field only; each reduce() sees
 * one first field with its seconds in descending order (so a mistake in either comparator shows).
 */
public final class SecondarySort {
  private SecondarySort() {}

  public static final class IntPair implements WritableComparable<IntPair> {
    private int first;
    private int second;

    public void set(int first, int second) {
      this.first = first;
      this.second = second;
    }

    public int first() {
      return first;
    }

    public int second() {
      return second;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(first);
      out.writeInt(second);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      first = in.readInt();
      second = in.readInt();
    }

    @Override
    public int compareTo(IntPair o) {
      int c = Integer.compare(first, o.first);
      return c != 0 ? c : -Integer.compare(second, o.second);
    }

    @Override
    public int hashCode() {
      return first * 157 + second;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof IntPair p && p.first == first && p.second == second;
    }

    /** First ascending, second descending, on the serialized bytes. */
    public static final class Comparator extends WritableComparator {
      public Comparator() {
        super(IntPair.class);
      }

      @Override
      public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
        int c = Integer.compare(readInt(b1, s1), readInt(b2, s2));
        return c != 0 ? c : -Integer.compare(readInt(b1, s1 + 4), readInt(b2, s2 + 4));
      }
    }
  }

  public static final class FirstPartitioner extends Partitioner<IntPair, IntWritable> {
    @Override
    public int getPartition(IntPair key, IntWritable value, int partitions) {
      return Math.abs(key.first() * 127) % partitions;
    }
  }

  public static final class FirstGrouping implements RawComparator<IntPair> {
    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return Integer.compare(
          WritableComparator.readInt(b1, s1), WritableComparator.readInt(b2, s2));
    }

    @Override
    public int compare(IntPair a, IntPair b) {
      return Integer.compare(a.first(), b.first());
    }
  }

  public static final class Pairs extends Mapper<LongWritable, Text, IntPair, IntWritable> {
    private final IntPair key = new IntPair();
    private final IntWritable value = new IntWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] f = line.toString().split("\\s+");
      int a = Integer.parseInt(f[0]);
      int b = Integer.parseInt(f[1]);
      key.set(a, b);
      value.set(b);
      context.write(key, value);
    }
  }

  public static final class Lines extends Reducer<IntPair, IntWritable, Text, NullWritable> {
    private final Text out = new Text();

    @Override
    protected void reduce(IntPair key, Iterable<IntWritable> seconds, Context context)
        throws IOException, InterruptedException {
      StringBuilder line = new StringBuilder().append(key.first()).append(':');
      for (IntWritable s : seconds) {
        line.append(' ').append(s.get());
      }
      out.set(line.toString());
      context.write(out, NullWritable.get());
    }
  }

  public static void configure(Job job) {
    job.setJarByClass(SecondarySort.class);
    job.setMapperClass(Pairs.class);
    job.setReducerClass(Lines.class);
    job.setPartitionerClass(FirstPartitioner.class);
    job.setSortComparatorClass(IntPair.Comparator.class);
    job.setGroupingComparatorClass(FirstGrouping.class);
    job.setMapOutputKeyClass(IntPair.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
  }
}
