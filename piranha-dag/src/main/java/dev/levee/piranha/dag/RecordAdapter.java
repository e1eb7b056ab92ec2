package dev.levee.piranha.dag;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.KeyValueLineRecordReader;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * How the records a stage pushes over a forward edge become the records its child's mapper expects:
 * what the child's input format would have read back had the parent written through its output
 * format. Chosen once per edge from the two jobs' formats and kept in the child step's settings.
 */
public final class RecordAdapter {
  /** The child step's setting that names the adapter. */
  public static final String MODE_KEY = "levee.piranha.internal.forward.adapter";

  /** The parent's TextOutputFormat separator, copied into the child step. */
  public static final String SEPARATOR_KEY = "levee.piranha.internal.forward.separator";

  /** Which conversion, if any. */
  public enum Mode {
    /** SequenceFile written and read back: the same key and value. */
    IDENTITY,
    /** TextOutputFormat read by TextInputFormat: (line offset, line). */
    TEXT_LINES,
    /** TextOutputFormat read by KeyValueTextInputFormat: (text before separator, after it). */
    KEY_VALUE_TEXT
  }

  private final Mode mode;
  private final byte[] outputSeparator;
  private final byte keyValueSeparator;
  private long offset;

  private RecordAdapter(Mode mode, String outputSeparator, byte keyValueSeparator) {
    this.mode = mode;
    this.outputSeparator = outputSeparator.getBytes(StandardCharsets.UTF_8);
    this.keyValueSeparator = keyValueSeparator;
  }

  /**
   * The adapter for a job that reads what {@code producer} wrote; refuses a pair of formats it
   * cannot hand over, naming both.
   */
  static RecordAdapter between(String where, Configuration producer, Configuration consumer) {
    Class<?> out = producer.getClass("mapreduce.job.outputformat.class", TextOutputFormat.class);
    Class<?> in = consumer.getClass("mapreduce.job.inputformat.class", TextInputFormat.class);
    String sep = producer.get(TextOutputFormat.SEPARATOR, "\t");
    if (SequenceFileOutputFormat.class.isAssignableFrom(out)
        && SequenceFileInputFormat.class.isAssignableFrom(in)) {
      return new RecordAdapter(Mode.IDENTITY, sep, (byte) '\t');
    }
    if (TextOutputFormat.class.isAssignableFrom(out)) {
      if (KeyValueTextInputFormat.class.isAssignableFrom(in)) {
        String kv = consumer.get(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, "\t");
        return new RecordAdapter(Mode.KEY_VALUE_TEXT, sep, (byte) kv.charAt(0));
      }
      if (TextInputFormat.class.isAssignableFrom(in)) {
        return new RecordAdapter(Mode.TEXT_LINES, sep, (byte) '\t');
      }
    }
    throw new DagException(
        where
            + " reads "
            + in.getName()
            + " what the previous job writes with "
            + out.getName()
            + "; Piranha hands records over only for SequenceFileOutputFormat ->"
            + " SequenceFileInputFormat and TextOutputFormat -> TextInputFormat or"
            + " KeyValueTextInputFormat");
  }

  /** {@code step} with this adapter recorded in its settings. */
  Step into(Step step) {
    Map<String, String> c = new LinkedHashMap<>(step.conf());
    c.put(MODE_KEY, mode.name());
    c.put(SEPARATOR_KEY, new String(outputSeparator, StandardCharsets.UTF_8));
    c.put(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, String.valueOf((char) keyValueSeparator));
    return new Step(step.kind(), c);
  }

  /** The adapter a child step's settings name ({@link Mode#IDENTITY} when they name none). */
  public static RecordAdapter of(Configuration stepConf) {
    Mode mode = Mode.valueOf(stepConf.get(MODE_KEY, Mode.IDENTITY.name()));
    String kv = stepConf.get(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, "\t");
    return new RecordAdapter(mode, stepConf.get(SEPARATOR_KEY, "\t"), (byte) kv.charAt(0));
  }

  public Mode mode() {
    return mode;
  }

  /** The key class the child's mapper receives, given the class its parent pushes. */
  public Class<?> keyClass(Class<?> pushed) {
    return switch (mode) {
      case IDENTITY -> pushed;
      case TEXT_LINES -> LongWritable.class;
      case KEY_VALUE_TEXT -> Text.class;
    };
  }

  public Class<?> valueClass(Class<?> pushed) {
    return mode == Mode.IDENTITY ? pushed : Text.class;
  }

  /**
   * Hands {@code sink} the records one pushed record becomes: itself, or the lines its text form
   * holds.
   */
  public void adapt(Object key, Object value, BiConsumer<Object, Object> sink) {
    if (mode == Mode.IDENTITY) {
      sink.accept(key, value);
      return;
    }
    byte[] line = format(key, value);
    if (line == null) {
      return;
    }
    // LineRecordReader's default delimiters: \n, \r or \r\n.
    int start = 0;
    for (int i = 0; i <= line.length; i++) {
      boolean end = i == line.length;
      if (!end && line[i] != '\n' && line[i] != '\r') {
        continue;
      }
      emit(line, start, i - start, sink);
      int next = i + 1;
      if (!end && line[i] == '\r' && next == line.length) {
        // The record's own newline follows: "\r\n" is one delimiter.
        offset += next - start + 1;
        return;
      }
      if (!end && line[i] == '\r' && next < line.length && line[next] == '\n') {
        next++;
      }
      offset += next - start;
      start = next;
      i = next - 1;
    }
  }

  private void emit(byte[] line, int from, int length, BiConsumer<Object, Object> sink) {
    if (mode == Mode.TEXT_LINES) {
      Text t = new Text();
      t.set(line, from, length);
      sink.accept(new LongWritable(offset), t);
      return;
    }
    int sep = -1;
    for (int i = from; i < from + length; i++) {
      if (line[i] == keyValueSeparator) {
        sep = i;
        break;
      }
    }
    Text k = new Text();
    Text v = new Text();
    if (sep < 0) {
      k.set(line, from, length);
    } else {
      k.set(line, from, sep - from);
      v.set(line, sep + 1, from + length - sep - 1);
    }
    sink.accept(k, v);
  }

  /** The bytes TextOutputFormat writes for one record, without its newline; null for nothing. */
  private byte[] format(Object key, Object value) {
    boolean nullKey = key == null || key instanceof NullWritable;
    boolean nullValue = value == null || value instanceof NullWritable;
    if (nullKey && nullValue) {
      return null;
    }
    byte[] k = nullKey ? new byte[0] : bytes(key);
    byte[] v = nullValue ? new byte[0] : bytes(value);
    byte[] sep = nullKey || nullValue ? new byte[0] : outputSeparator;
    byte[] all = new byte[k.length + sep.length + v.length];
    System.arraycopy(k, 0, all, 0, k.length);
    System.arraycopy(sep, 0, all, k.length, sep.length);
    System.arraycopy(v, 0, all, k.length + sep.length, v.length);
    return all;
  }

  private static byte[] bytes(Object o) {
    if (o instanceof Text t) {
      byte[] b = new byte[t.getLength()];
      System.arraycopy(t.getBytes(), 0, b, 0, t.getLength());
      return b;
    }
    return o.toString().getBytes(StandardCharsets.UTF_8);
  }
}
