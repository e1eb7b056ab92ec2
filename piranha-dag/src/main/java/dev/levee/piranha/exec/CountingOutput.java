package dev.levee.piranha.exec;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The terminal stage's writer to the job's real output, counting what it writes: a Piranha job runs
 * every stage as a map task of one MapReduce job, so MapReduce's own output counters mix the
 * stages, and the records that reached the output are counted here alone.
 */
final class CountingOutput extends RecordWriter<Object, Object> {
  private final RecordWriter<Object, Object> out;
  private final Counter records;

  CountingOutput(RecordWriter<Object, Object> out, Counter records) {
    this.out = out;
    this.records = records;
  }

  @Override
  public void write(Object key, Object value) throws IOException, InterruptedException {
    out.write(key, value);
    records.increment(1);
  }

  @Override
  public void close(TaskAttemptContext context) throws IOException, InterruptedException {
    out.close(context);
  }
}
