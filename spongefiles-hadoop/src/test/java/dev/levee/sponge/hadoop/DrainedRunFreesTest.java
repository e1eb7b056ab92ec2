package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.testing.PoolBackedRemoteMemory;
import dev.levee.sponge.testing.SpongeTestRig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 15, part 4 (D2): the merge frees each run it drained in the background. Its segments are
 * SpongeFile runs on a remote tier whose frees are held or fail; the merge must neither wait for
 * them nor fail, and closing SpongeFiles must wait for the held ones before the figures are read.
 */
@Timeout(60)
class DrainedRunFreesTest {
  private static final int CHUNK = 4096;
  private static final int RUNS = 3;
  private static final int RECORDS_PER_RUN = 2000; // about 6 chunks of IFile bytes per run

  @Test
  void theMergeDoesNotWaitForHeldFreesAndClosingWaitsForThem() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      remote.addServer("a", rig.shm.resolve("a"), 64, CHUNK);
      SpongeFileSystem fs = openRemoteOnly(rig, remote);
      JobConf job = new JobConf(rig.conf);
      List<Segment<IntWritable, IntWritable>> segments = runs(fs, job);
      long remoteChunks = fs.metrics().chunksWritten(Tier.REMOTE_MEMORY);
      assertTrue(remoteChunks >= RUNS * 2, "the runs must span several remote chunks");

      CountDownLatch gate = remote.holdFrees();
      // Returns only if closing each drained run left its frees to the background: every free is
      // held.
      mergeAndCheck(job, segments);
      assertEquals(0, fs.openFiles(), "every drained run is deleted");
      Await.until("a background free reached the server", () -> remote.freeCalls() >= 1);
      assertTrue(fs.pendingFrees() > 0);
      assertEquals(0, fs.metrics().chunksFreed(Tier.REMOTE_MEMORY));

      AtomicReference<Thread> closer = new AtomicReference<>();
      CompletableFuture<Void> closed =
          CompletableFuture.runAsync(
              () -> {
                closer.set(Thread.currentThread());
                closeQuietly(fs);
              },
              r -> new Thread(r, "closer").start());
      Await.until(
          "close parks waiting for the held frees",
          () -> closer.get() != null && closer.get().getState() == Thread.State.TIMED_WAITING);
      assertFalse(closed.isDone(), "close must wait for the frees still held");
      gate.countDown();
      closed.get();

      assertEquals(remoteChunks, fs.metrics().chunksFreed(Tier.REMOTE_MEMORY));
      assertEquals(0, fs.metrics().freesAbandoned());
      assertEquals(0, fs.metrics().freeFailures());
      assertTrue(fs.metrics().freeCloseWaitNanos() > 0);
      assertTrue(fs.metrics().freeNanos() > 0);
      assertTrue(fs.metrics().readWaitNanos() > 0, "remote chunks were waited for");
      assertEquals(fs.metrics().filesCreated(), fs.metrics().filesDeleted());
    }
  }

  @Test
  void aFailingFreeIsCountedAndTheMergeCompletes() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      remote.addServer("a", rig.shm.resolve("a"), 64, CHUNK);
      SpongeFileSystem fs = openRemoteOnly(rig, remote);
      JobConf job = new JobConf(rig.conf);
      List<Segment<IntWritable, IntWritable>> segments = runs(fs, job);
      remote.failFrees();
      mergeAndCheck(job, segments);
      fs.close();
      assertEquals(RUNS, fs.metrics().freeFailures(), "one failed free per run on the remote tier");
      assertEquals(RUNS, fs.metrics().errors(Tier.REMOTE_MEMORY));
      assertEquals(0, fs.metrics().freesAbandoned());
      assertEquals(fs.metrics().filesCreated(), fs.metrics().filesDeleted());
    }
  }

  /** Local pool of one chunk, no disk or DFS: the runs live in the in-process remote server. */
  private static SpongeFileSystem openRemoteOnly(SpongeTestRig rig, PoolBackedRemoteMemory remote)
      throws IOException {
    rig.conf.set(SpongeConf.DISK_ENABLED.name(), "false");
    rig.conf.set(SpongeConf.DFS_ENABLED.name(), "false");
    return rig.open(remote);
  }

  /** Run r holds the keys r, r + RUNS, r + 2 RUNS...: merged, they count up from 0. */
  private static List<Segment<IntWritable, IntWritable>> runs(SpongeFileSystem fs, JobConf job)
      throws IOException {
    SpilledRunFiles files = new SpilledRunFiles(job, CHUNK);
    List<Segment<IntWritable, IntWritable>> segments = new ArrayList<>();
    for (int r = 0; r < RUNS; r++) {
      SpongeFile file = fs.create("run-" + r);
      long raw;
      try (FSDataOutputStream out = new FSDataOutputStream(file.output(), null)) {
        IFile.Writer<IntWritable, IntWritable> w =
            new IFile.Writer<>(job, out, IntWritable.class, IntWritable.class, null, null);
        for (int i = 0; i < RECORDS_PER_RUN; i++) {
          int key = r + i * RUNS;
          w.append(new IntWritable(key), new IntWritable(-key));
        }
        w.close();
        raw = w.getRawLength();
      }
      segments.add(files.segment(job, new SpilledSegment(file, raw, false), true, null, null));
    }
    return segments;
  }

  private static void mergeAndCheck(JobConf job, List<Segment<IntWritable, IntWritable>> segments)
      throws IOException {
    RawKeyValueIterator it =
        Merger.merge(
            job,
            FileSystem.getLocal(job),
            IntWritable.class,
            IntWritable.class,
            segments,
            segments.size(),
            new Path("unused-tmp"),
            new IntWritable.Comparator(),
            Reporter.NULL,
            false,
            new Counters().findCounter(TaskCounter.SPILLED_RECORDS),
            null,
            new Progress());
    IntWritable key = new IntWritable();
    IntWritable value = new IntWritable();
    int expected = 0;
    while (it.next()) {
      DataInputBuffer k = it.getKey();
      key.readFields(k);
      DataInputBuffer v = it.getValue();
      value.readFields(v);
      assertEquals(expected, key.get());
      assertEquals(-expected, value.get());
      expected++;
    }
    it.close();
    assertEquals(RUNS * RECORDS_PER_RUN, expected);
  }

  private static void closeQuietly(SpongeFileSystem fs) {
    try {
      fs.close();
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }
}
