package dev.levee.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.WordCount;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Hadoop's own WordCount (from its MapReduce test jar), two reducers, on YARN and HDFS. */
class WordCountTest {

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final int REDUCERS = 2;

  @Test
  void stockWordCountWithTwoReducersCountsEveryWord() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/wordcount/in");
    Path output = new Path("/it/wordcount/out");
    Map<String, Integer> expected = new HashMap<>();
    // Two files, so two map tasks; Zipf-like skew so a few words dominate, as in real text.
    Random random = new Random(42);
    for (int file = 0; file < 2; file++) {
      List<String> lines = new ArrayList<>();
      for (int line = 0; line < 5_000; line++) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < 8; w++) {
          String word = "w" + (int) Math.floor(Math.pow(400, random.nextDouble()));
          expected.merge(word, 1, Integer::sum);
          text.append(w == 0 ? "" : " ").append(word);
        }
        lines.add(text.toString());
      }
      ClusterFiles.writeLines(fs, new Path(input, "part-" + file + ".txt"), lines);
    }

    int exit =
        ToolRunner.run(
            cluster.clientConf(),
            new WordCount(),
            new String[] {"-r", String.valueOf(REDUCERS), input.toString(), output.toString()});

    assertEquals(0, exit);
    assertEquals(
        1, YarnApps.succeeded(cluster.clientConf(), "wordcount").size(), "wordcount apps on YARN");
    List<Path> parts = ClusterFiles.partFiles(fs, output);
    assertEquals(REDUCERS, parts.size(), "one output file per reducer: " + parts);
    HashPartitioner<Text, Object> partitioner = new HashPartitioner<>();
    Map<String, Integer> counted = new HashMap<>();
    for (int reducer = 0; reducer < REDUCERS; reducer++) {
      List<String> lines = ClusterFiles.readLines(fs, parts.get(reducer));
      assertFalse(lines.isEmpty(), "reducer " + reducer + " wrote nothing");
      for (String line : lines) {
        String[] wordAndCount = line.split("\t");
        assertEquals(
            reducer,
            partitioner.getPartition(new Text(wordAndCount[0]), null, REDUCERS),
            "word " + wordAndCount[0] + " landed in the wrong reducer's file");
        counted.put(wordAndCount[0], Integer.parseInt(wordAndCount[1]));
      }
    }
    assertEquals(expected, counted);
  }
}
