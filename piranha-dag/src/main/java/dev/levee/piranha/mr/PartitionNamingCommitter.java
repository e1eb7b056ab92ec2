package dev.levee.piranha.mr;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;

/**
 * The terminal stage's committer, unchanged except for file names: a terminal task is a map task
 * whose index comes from the length-sorted split order, so FileOutputFormat names its files {@code
 * part-m-<map index>}; before the task commits, they are renamed {@code part-r-<partition>}, the
 * name a stock reducer of that partition writes, so readers that rely on file order (a total order
 * sort, a top-k) see the partitions in order. Every context is handed on with the terminal stage's
 * settings, which the committer of its output format reads.
 */
final class PartitionNamingCommitter extends OutputCommitter {
  private static final Pattern MAP_FILE = Pattern.compile("(.*)-m-(\\d{5,})(.*)");

  private final OutputCommitter delegate;

  PartitionNamingCommitter(OutputCommitter delegate) {
    this.delegate = delegate;
  }

  @Override
  public void setupJob(JobContext jobContext) throws IOException {
    delegate.setupJob(PiranhaOutputFormat.terminal(jobContext));
  }

  @Override
  public void setupTask(TaskAttemptContext taskContext) throws IOException {
    delegate.setupTask(PiranhaOutputFormat.terminal(taskContext));
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext taskContext) throws IOException {
    return delegate.needsTaskCommit(PiranhaOutputFormat.terminal(taskContext));
  }

  @Override
  public void commitTask(TaskAttemptContext taskContext) throws IOException {
    String partition = taskContext.getConfiguration().get(JobKeys.TERMINAL_PARTITION);
    if (partition != null && delegate instanceof FileOutputCommitter f) {
      rename(f.getTaskAttemptPath(taskContext), taskContext, Integer.parseInt(partition));
    }
    delegate.commitTask(PiranhaOutputFormat.terminal(taskContext));
  }

  private static void rename(Path dir, TaskAttemptContext ctx, int partition) throws IOException {
    FileSystem fs = dir.getFileSystem(ctx.getConfiguration());
    if (!fs.exists(dir)) {
      return;
    }
    String mapIndex = String.format("%05d", ctx.getTaskAttemptID().getTaskID().getId());
    for (FileStatus st : fs.listStatus(dir)) {
      Matcher m = MAP_FILE.matcher(st.getPath().getName());
      if (st.isFile()
          && m.matches()
          && Integer.parseInt(m.group(2)) == Integer.parseInt(mapIndex)) {
        String name = m.group(1) + "-r-" + String.format("%05d", partition) + m.group(3);
        Path target = new Path(dir, name);
        if (!fs.rename(st.getPath(), target)) {
          throw new IOException("cannot rename " + st.getPath() + " to " + target);
        }
      }
    }
  }

  @Override
  public void abortTask(TaskAttemptContext taskContext) throws IOException {
    delegate.abortTask(PiranhaOutputFormat.terminal(taskContext));
  }

  @Override
  public void commitJob(JobContext jobContext) throws IOException {
    delegate.commitJob(PiranhaOutputFormat.terminal(jobContext));
  }

  @Override
  public void abortJob(JobContext jobContext, JobStatus.State state) throws IOException {
    delegate.abortJob(PiranhaOutputFormat.terminal(jobContext), state);
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext jobContext) throws IOException {
    return delegate.isCommitJobRepeatable(PiranhaOutputFormat.terminal(jobContext));
  }
}
