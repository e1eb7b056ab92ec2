package dev.levee.piranha.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.examples.TopWords;
import dev.levee.piranha.plan.RunPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MapReduce numbers map tasks after sorting splits by length, largest first. Every task must still
 * find its own role, because the role travels in the split, not in the task's index.
 */
class SplitOrderTest {
  @TempDir Path dir;

  @Test
  void rolesSurviveTheLengthSortedSplitOrder() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    // Smallest file first: the length sort reverses the initial tasks.
    for (int f = 0; f < 4; f++) {
      Files.writeString(
          in.resolve("f" + f + ".txt"),
          "word ".repeat(100 * (f + 1)) + "\n",
          StandardCharsets.UTF_8);
    }
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    var dag =
        TopWords.dag(
            new org.apache.hadoop.fs.Path(in.toString()),
            new org.apache.hadoop.fs.Path(dir.resolve("out").toString()),
            3,
            5);
    Map<String, Integer> counts = Map.of("scan", 4);
    RunPlan plan = RunPlan.resolve(dag, counts);
    Job job = Job.getInstance(conf);
    job.getConfiguration().set(JobKeys.PLAN, plan.encode());

    List<InputSplit> splits =
        new PiranhaInputFormat().getSplits(new JobContextImpl(job.getConfiguration(), null));
    assertEquals(plan.taskCount(), splits.size());

    // What JobSubmitter.writeNewSplits does: sort by length, largest first, then serialize.
    List<InputSplit> submitted = new ArrayList<>(splits);
    submitted.sort(Comparator.comparingLong(SplitOrderTest::length).reversed());
    assertNotEquals(
        ((PiranhaSplit) splits.get(0)).task(),
        ((PiranhaSplit) submitted.get(0)).task(),
        "the length sort changes which task gets map index 0");

    SerializationFactory factory = new SerializationFactory(job.getConfiguration());
    Set<TaskId> roles = new HashSet<>();
    Set<String> files = new HashSet<>();
    for (int mapIndex = 0; mapIndex < submitted.size(); mapIndex++) {
      PiranhaSplit read = roundTrip(factory, (PiranhaSplit) submitted.get(mapIndex));
      TaskId task = read.task();
      assertTrue(roles.add(task), "task " + task + " appears once");
      if (plan.stage(task.stage()).initial()) {
        FileSplit fs = (FileSplit) read.inner();
        assertEquals(Files.size(Path.of(fs.getPath().toUri())), fs.getLength(), "whole file");
        assertTrue(files.add(fs.getPath().getName()), "each file read by one task");
        assertEquals(length(submitted.get(mapIndex)), read.getLength());
      } else {
        assertNull(read.inner(), "a non-initial task has an empty split");
        assertEquals(0, read.getLength());
        assertEquals(0, read.getLocations().length, "no location: it runs anywhere");
      }
    }
    assertEquals(new HashSet<>(plan.tasks()), roles, "every task of the plan, each once");
    assertEquals(4, files.size());
  }

  private static long length(InputSplit s) {
    try {
      return s.getLength();
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static PiranhaSplit roundTrip(SerializationFactory f, PiranhaSplit s) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    Serializer<PiranhaSplit> ser = f.getSerializer((Class<PiranhaSplit>) s.getClass());
    ser.open(out);
    ser.serialize(s);
    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    Deserializer<PiranhaSplit> de = f.getDeserializer((Class<PiranhaSplit>) s.getClass());
    de.open(in);
    return de.deserialize(null);
  }
}
