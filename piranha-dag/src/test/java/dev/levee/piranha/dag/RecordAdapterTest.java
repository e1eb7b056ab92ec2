package dev.levee.piranha.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

/** What TextOutputFormat writes and TextInputFormat / KeyValueTextInputFormat read back. */
class RecordAdapterTest {
  private static List<String> adapt(RecordAdapter.Mode mode, Object... kv) {
    Configuration c = new Configuration(false);
    c.set(RecordAdapter.MODE_KEY, mode.name());
    c.set(RecordAdapter.SEPARATOR_KEY, "\t");
    RecordAdapter a = RecordAdapter.of(c);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      a.adapt(kv[i], kv[i + 1], (k, v) -> out.add(k + "|" + v));
    }
    return out;
  }

  @Test
  void textLinesCarryOffsetsAndSplitOnLineBreaks() {
    assertEquals(
        List.of("0|a\t1", "4|b", "6|c\t2", "10|only"),
        adapt(
            RecordAdapter.Mode.TEXT_LINES,
            new Text("a"),
            new IntWritable(1),
            new Text("b\nc"),
            new IntWritable(2),
            NullWritable.get(),
            new Text("only")));
  }

  @Test
  void crBeforeTheRecordsOwnNewlineIsOneDelimiter() {
    assertEquals(
        List.of("0|x", "3|y"),
        adapt(
            RecordAdapter.Mode.TEXT_LINES,
            new Text("x\r"),
            NullWritable.get(),
            new Text("y"),
            null));
  }

  @Test
  void keyValueTextSplitsAtTheFirstSeparator() {
    assertEquals(
        List.of("k|1", "solo|"),
        adapt(
            RecordAdapter.Mode.KEY_VALUE_TEXT,
            new Text("k"),
            new IntWritable(1),
            new Text("solo"),
            NullWritable.get()));
  }

  @Test
  void nothingForTwoNulls() {
    assertEquals(List.of(), adapt(RecordAdapter.Mode.TEXT_LINES, NullWritable.get(), null));
  }
}
