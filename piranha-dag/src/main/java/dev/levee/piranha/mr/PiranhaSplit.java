package dev.levee.piranha.mr;

import dev.levee.piranha.dag.TaskId;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The split of one Piranha task: its role (stage and partition) travels inside it, because
 * MapReduce numbers map tasks after sorting splits by length, largest first ({@code
 * JobSubmitter.writeNewSplits}), so a task's index says nothing about its role. An initial task's
 * split wraps the real split of its input format (length and locations included, so the scheduler
 * places it near its data); every other task's split is empty and has no location, so it runs
 * wherever YARN finds room.
 */
public final class PiranhaSplit extends InputSplit implements Writable, Configurable {
  private Configuration conf;
  private TaskId task;
  private InputSplit inner;

  /** For deserialization. */
  public PiranhaSplit() {}

  public PiranhaSplit(TaskId task, InputSplit inner) {
    this.task = task;
    this.inner = inner;
  }

  public TaskId task() {
    return task;
  }

  /** The input format's split of an initial task; null for the others. */
  public InputSplit inner() {
    return inner;
  }

  @Override
  public long getLength() throws IOException, InterruptedException {
    return inner == null ? 0 : inner.getLength();
  }

  @Override
  public String[] getLocations() throws IOException, InterruptedException {
    return inner == null ? new String[0] : inner.getLocations();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(task.stage());
    out.writeInt(task.partition());
    out.writeBoolean(inner != null);
    if (inner != null) {
      if (!(inner instanceof Writable w)) {
        throw new IOException(
            "split class "
                + inner.getClass().getName()
                + " is not Writable; Piranha wraps only"
                + " Writable splits (all of Hadoop's and Pig's are)");
      }
      Text.writeString(out, inner.getClass().getName());
      w.write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    task = new TaskId(in.readInt(), in.readInt());
    inner = null;
    if (in.readBoolean()) {
      String name = Text.readString(in);
      Class<?> cls;
      try {
        cls = conf != null ? conf.getClassByName(name) : Class.forName(name);
      } catch (ClassNotFoundException e) {
        throw new IOException("split class " + name + " is not on the task's classpath", e);
      }
      Writable w = (Writable) ReflectionUtils.newInstance(cls, conf);
      w.readFields(in);
      inner = (InputSplit) w;
    }
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public String toString() {
    return "Piranha task " + task + (inner == null ? " (empty split)" : " over " + inner);
  }
}
