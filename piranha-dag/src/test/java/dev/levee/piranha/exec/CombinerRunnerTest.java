package dev.levee.piranha.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.levee.piranha.exchange.PartitionBuffer;
import dev.levee.piranha.exchange.RecordCursor;
import dev.levee.piranha.exchange.Run;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;

class CombinerRunnerTest {
  @Test
  void stockCombinerSumsEachKeyOncePerRun() throws Exception {
    Configuration conf = new Configuration();
    Job job = Job.getInstance(conf);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    Configuration c = job.getConfiguration();
    TaskAttemptID id = new TaskAttemptID("t", 1, org.apache.hadoop.mapreduce.TaskType.MAP, 0, 0);
    TaskReporter reporter = new TaskReporter(new TaskAttemptContextImpl(c, id));
    @SuppressWarnings({"unchecked", "rawtypes"})
    CombinerRunner combiner = new CombinerRunner(c, (Class) LongSumReducer.class, id, reporter);
    List<Run> runs = new ArrayList<>();
    PartitionBuffer b =
        new PartitionBuffer(
            c,
            Text.class,
            LongWritable.class,
            1 << 20,
            1,
            WritableComparator.get(Text.class),
            combiner,
            (p, r) -> runs.add(r));
    for (int i = 0; i < 100; i++) {
      b.add(0, new Text("k" + (i % 3)), new LongWritable(1));
    }
    b.flush();
    assertEquals(1, runs.size());
    assertEquals(3, runs.get(0).records());
    RecordCursor cur = runs.get(0).cursor();
    List<String> got = new ArrayList<>();
    while (cur.next()) {
      DataInputBuffer kb = new DataInputBuffer();
      cur.key(kb);
      Text k = new Text();
      k.readFields(kb);
      DataInputBuffer vb = new DataInputBuffer();
      cur.value(vb);
      LongWritable v = new LongWritable();
      v.readFields(vb);
      got.add(k + "=" + v);
    }
    assertEquals(List.of("k0=34", "k1=33", "k2=33"), got);
  }
}
