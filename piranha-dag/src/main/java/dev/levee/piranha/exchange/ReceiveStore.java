package dev.levee.piranha.exchange;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaAbortedException;
import dev.levee.piranha.dag.TaskId;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.io.DataOutputBuffer;

/**
 * What a child task holds of its parents' pushes until every expected parent's stream has ended.
 * Runs are kept in memory up to a byte budget; a run that does not fit goes to a file in the spill
 * directory as it arrives (the runs are sorted by their parents, so the files are sorted runs), and
 * the final merge reads memory and files alike. With {@code persistAll} (the checkpointing
 * configurations) every run goes to disk and is fsynced before it counts as held.
 *
 * <p>A parent's stream counts as held, and may be acknowledged, only once {@link Incoming#end}
 * returns: its bytes are in memory or in a closed file, and its record and byte counts match what
 * the parent declared.
 */
public final class ReceiveStore implements Closeable {
  private final long budget;
  private final Path spillDir;
  private final boolean persistAll;
  private final Set<TaskId> expected;
  private final Set<TaskId> opened = new HashSet<>();
  private final Set<TaskId> completed = new HashSet<>();
  private final Map<TaskId, List<Run>> runsByParent = new TreeMap<>();
  private final Map<Integer, long[]> receivedByStage = new TreeMap<>();
  private long memoryUsed;
  private long spills;
  private long spilledBytes;
  private int fileSequence;
  private boolean closed;

  public ReceiveStore(long memoryBudget, Path spillDir, boolean persistAll, Set<TaskId> expected) {
    this.budget = memoryBudget;
    this.spillDir = spillDir;
    this.persistAll = persistAll;
    this.expected = Collections.unmodifiableSet(new TreeSet<>(expected));
  }

  public Set<TaskId> expected() {
    return expected;
  }

  /** Starts receiving {@code parent}'s stream; a second stream from the same parent is refused. */
  public synchronized Incoming open(TaskId parent) {
    if (!expected.contains(parent)) {
      throw new IllegalStateException(
          "task " + parent + " is not a parent of this task (expected " + expected + ")");
    }
    if (!opened.add(parent)) {
      throw new IllegalStateException(
          "a second stream from "
              + parent
              + " arrived; a parent pushes once per attempt (is a second copy of it running?)");
    }
    runsByParent.put(parent, new ArrayList<>());
    return new Incoming(parent);
  }

  /**
   * Waits until every expected parent's stream is held, calling {@code tick} about every 200 ms
   * (task progress, so the MapReduce task timeout does not fire).
   */
  public void awaitComplete(Deadline deadline, AbortSignal abort, Runnable tick)
      throws PiranhaAbortedException, InterruptedException {
    while (true) {
      synchronized (this) {
        if (completed.size() == expected.size()) {
          return;
        }
      }
      abort.check();
      if (deadline.passed()) {
        Set<TaskId> missing;
        synchronized (this) {
          missing = new TreeSet<>(expected);
          missing.removeAll(completed);
        }
        throw new PiranhaAbortedException(
            deadline.expiredMessage() + "; streams not ended from " + missing);
      }
      tick.run();
      synchronized (this) {
        if (completed.size() != expected.size()) {
          wait(Math.min(200, Math.max(1, deadline.remainingMillis())));
        }
      }
    }
  }

  /** Every held run, parents in task order and each parent's runs in arrival order. */
  public synchronized List<Run> runs() {
    List<Run> all = new ArrayList<>();
    runsByParent.values().forEach(all::addAll);
    return all;
  }

  public synchronized long memoryUsed() {
    return memoryUsed;
  }

  /** Runs written to disk because they did not fit (or, with persistAll, all of them). */
  public synchronized long spills() {
    return spills;
  }

  public synchronized long spilledBytes() {
    return spilledBytes;
  }

  /** Records and bytes held, by the parent's stage. */
  public synchronized Map<Integer, long[]> receivedByStage() {
    Map<Integer, long[]> copy = new TreeMap<>();
    receivedByStage.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  /** Deletes the spill files. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    for (List<Run> runs : runsByParent.values()) {
      for (Run r : runs) {
        if (!r.inMemory() && r.file() != null) {
          Files.deleteIfExists(r.file());
        }
      }
    }
    memoryUsed = 0;
  }

  private synchronized boolean reserve(long bytes) {
    if (persistAll || memoryUsed + bytes > budget) {
      return false;
    }
    memoryUsed += bytes;
    return true;
  }

  private synchronized void release(long bytes) {
    memoryUsed -= bytes;
  }

  private synchronized Path nextFile(TaskId parent) throws IOException {
    if (closed) {
      throw new IOException("the receive store is closed");
    }
    Files.createDirectories(spillDir);
    return spillDir.resolve(String.format("from-%s-run-%05d.run", parent, fileSequence++));
  }

  private synchronized void held(TaskId parent, Run run) {
    runsByParent.get(parent).add(run);
    if (!run.inMemory()) {
      spills++;
      spilledBytes += run.bytes();
    }
    long[] r = receivedByStage.computeIfAbsent(parent.stage(), k -> new long[2]);
    r[0] += run.records();
    r[1] += run.bytes();
  }

  private synchronized void completed(TaskId parent) {
    completed.add(parent);
    notifyAll();
  }

  /** One parent's stream, fed by the connection that carries it. */
  public final class Incoming {
    private final TaskId parent;
    private DataOutputBuffer memory;
    private long reserved;
    private OutputStream file;
    private FileChannel channel;
    private Path filePath;
    private long runBytes;
    private boolean inRun;
    private boolean runSorted;
    private long totalRecords;
    private long totalBytes;
    private int runs;

    private Incoming(TaskId parent) {
      this.parent = parent;
    }

    public TaskId parent() {
      return parent;
    }

    public void startRun(boolean sorted) throws IOException {
      if (inRun) {
        throw new IOException("run started inside a run from " + parent);
      }
      inRun = true;
      runSorted = sorted;
      runBytes = 0;
      memory = new DataOutputBuffer();
    }

    public void append(byte[] b, int off, int len) throws IOException {
      if (!inRun) {
        throw new IOException("data from " + parent + " outside a run");
      }
      if (file == null) {
        if (reserve(len)) {
          reserved += len;
          memory.write(b, off, len);
          runBytes += len;
          return;
        }
        // Over budget: this run continues on disk, starting with what it already held.
        openFile();
        file.write(memory.getData(), 0, memory.getLength());
        release(reserved);
        reserved = 0;
        memory = null;
      }
      file.write(b, off, len);
      runBytes += len;
    }

    public void endRun(long records, long bytes) throws IOException {
      if (!inRun) {
        throw new IOException("run end without a run from " + parent);
      }
      if (bytes != runBytes) {
        throw new IOException(
            "run from " + parent + " declared " + bytes + " bytes but carried " + runBytes);
      }
      Run run;
      if (file == null) {
        run = Run.inMemory(memory.getData(), memory.getLength(), records, runSorted);
        verifyCount(run, records);
      } else {
        file.flush();
        channel.force(true);
        file.close();
        // The frames' checksums cover a file run's bytes; re-reading it here would double the
        // disk traffic of exactly the runs that did not fit in memory.
        run = Run.inFile(filePath, runBytes, records, runSorted);
        file = null;
        channel = null;
      }
      memory = null;
      reserved = 0;
      inRun = false;
      totalRecords += records;
      totalBytes += runBytes;
      runs++;
      held(parent, run);
    }

    /**
     * The parent's stream ended: checks its declared totals against what arrived. The caller
     * acknowledges the stream and only then {@link #complete()}s it: once the last parent is
     * complete the task may finish and close every connection, and an acknowledgement not yet sent
     * by then is lost (the parent saw the connection close while it waited for it, and the run
     * aborted).
     */
    public void checkEnd(long records, long bytes, int runCount) throws IOException {
      if (inRun) {
        throw new IOException("stream from " + parent + " ended inside a run");
      }
      if (records != totalRecords || bytes != totalBytes || runCount != runs) {
        throw new IOException(
            "stream from "
                + parent
                + " declared "
                + records
                + " records, "
                + bytes
                + " bytes in "
                + runCount
                + " runs, but "
                + totalRecords
                + " records, "
                + totalBytes
                + " bytes in "
                + runs
                + " runs arrived");
      }
    }

    /** {@link #checkEnd} then {@link #complete()}, where nothing is acknowledged in between. */
    public void end(long records, long bytes, int runCount) throws IOException {
      checkEnd(records, bytes, runCount);
      complete();
    }

    /** Marks the parent's stream held, after {@link #checkEnd} and its acknowledgement. */
    public void complete() {
      completed(parent);
    }

    /** Frees what an interrupted stream held. */
    public void discard() {
      try {
        if (file != null) {
          file.close();
          Files.deleteIfExists(filePath);
        }
      } catch (IOException ignored) {
        // Best effort; the run is aborting.
      }
      if (reserved > 0) {
        release(reserved);
        reserved = 0;
      }
    }

    private void openFile() throws IOException {
      filePath = nextFile(parent);
      channel =
          FileChannel.open(
              filePath,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING);
      file = new java.io.BufferedOutputStream(Channels.newOutputStream(channel), 64 << 10);
    }

    private void verifyCount(Run run, long declared) throws IOException {
      // Walks an in-memory run's framing once: a corrupt run fails here, before it is acknowledged.
      try (RecordCursor c = run.cursor()) {
        while (c.next()) {
          // counting
        }
        if (c.records() != declared) {
          throw new IOException(
              "run from " + parent + " declared " + declared + " records but held " + c.records());
        }
      }
    }
  }

  /** For tests and counters: how many streams are held. */
  public synchronized int completedCount() {
    return completed.size();
  }

  /** For diagnostics. */
  public synchronized Map<TaskId, Integer> runCounts() {
    Map<TaskId, Integer> m = new HashMap<>();
    runsByParent.forEach((k, v) -> m.put(k, v.size()));
    return m;
  }
}
