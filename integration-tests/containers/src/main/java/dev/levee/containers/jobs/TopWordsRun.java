package dev.levee.containers.jobs;

import dev.levee.it.piranha.GatedWordMapper;
import dev.levee.piranha.examples.TopWords;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Piranha's running example, the k most frequent words, from the client container: {@code
 * TopWordsRun [-conf piranha-site.xml] [-D k=v ...] [-libjars jar] <dir> <files> <lines-per-file>
 * <reducers> stock|piranha} writes {@code <files>} files of seeded skewed words to {@code <dir>/in}
 * (unless there already), then runs the query into {@code <dir>/<job name>}: {@code stock} as the
 * two chained MapReduce jobs, {@code piranha} as one Piranha DAG whose tasks rendezvous through the
 * ZooKeeper ensemble. The scan is the tests' {@link GatedWordMapper} (the example's mapper with a
 * gate a test can hold an attempt at). Prints what {@link JobReport} prints, and for Piranha how it
 * ran ({@link QueryRuns}); exit status 0 when the query succeeded.
 */
public final class TopWordsRun extends Configured implements Tool {
  private static final int K = 20;
  private static final int VOCABULARY = 5_000;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new TopWordsRun(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 5 || !(args[4].equals("stock") || args[4].equals("piranha"))) {
      System.err.println(
          "usage: TopWordsRun <dir> <files> <lines-per-file> <reducers> stock|piranha");
      return 2;
    }
    Configuration conf = getConf();
    TextInput text = TextInput.of(conf, args);
    Path input = text.ensure("words-", 7, true, TopWordsRun::powerLawWords);
    String name = conf.get("mapreduce.job.name", "top-words-" + args[4]);
    Path output = text.freshOutput(name);
    FileSystem fs = text.fs();
    int reducers = Integer.parseInt(args[3]);
    return args[4].equals("stock")
        ? QueryRuns.stock(
            TopWords.chain(conf, input, text.freshOutput(name + "-tmp"), output, reducers, K),
            fs,
            output)
        : QueryRuns.piranha(
            conf,
            TopWords.dag(name, GatedWordMapper.class, input, output, reducers, K),
            fs,
            output);
  }

  /** 1-10 words whose ranks follow a power law over the vocabulary (w1 the most common). */
  static void powerLawWords(Random random, StringBuilder line) {
    int words = 1 + random.nextInt(10);
    for (int w = 0; w < words; w++) {
      int rank = (int) Math.floor(Math.pow(VOCABULARY, random.nextDouble()));
      line.append(w == 0 ? "" : " ").append('w').append(rank);
    }
  }
}
