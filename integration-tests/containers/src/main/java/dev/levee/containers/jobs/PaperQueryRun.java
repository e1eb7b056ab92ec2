package dev.levee.containers.jobs;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.piranha.dag.MrChain;
import dev.levee.piranha.examples.web.PaperQueries;
import dev.levee.piranha.examples.web.PaperQuery;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * One of the Piranha paper's queries over web pages, from the client container: {@code
 * PaperQueryRun [-conf piranha-site.xml] [-D k=v ...] [-libjars jar] <query> <dir> <records>
 * <files> <reducers> stock|piranha} writes the bench's seeded {@code web} data set to {@code
 * <dir>/web} (unless a complete one is there), then runs the query ({@link PaperQueries#NAMES})
 * into {@code <dir>/<query>-<mode>}: {@code stock} as its chain of MapReduce jobs, {@code piranha}
 * as the very same chain handed to Piranha ({@link MrChain}), which runs it as one DAG whose tasks
 * rendezvous through the ZooKeeper ensemble. Prints what {@link QueryRuns} prints.
 */
public final class PaperQueryRun extends Configured implements Tool {
  /** The bench's seed for the web data, so that the tier reads the pages the bench reads. */
  private static final long SEED = 42;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PaperQueryRun(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 6
        || !PaperQueries.NAMES.contains(args[0])
        || !(args[5].equals("stock") || args[5].equals("piranha"))) {
      System.err.println(
          "usage: PaperQueryRun <"
              + String.join("|", PaperQueries.NAMES)
              + "> <dir> <records> <files> <reducers> stock|piranha");
      return 2;
    }
    Configuration conf = getConf();
    String name = args[0];
    Path dir = new Path(args[1]);
    FileSystem fs = dir.getFileSystem(conf);
    Path web = new Path(dir, "web");
    if (!fs.exists(new Path(web, DatasetWriter.MANIFEST))) {
      long records = Long.parseLong(args[2]);
      new DatasetWriter(conf)
          .writeBuiltIn(
              "web",
              SEED,
              Map.of(),
              new DatasetWriter.Plan(web.toString(), records, Integer.parseInt(args[3]), 1, true),
              ProgressReporter.start("web", records, "records"));
    }
    String mode = args[5];
    Path output = new Path(dir, name + "-" + mode);
    Path tmp = new Path(dir, name + "-" + mode + "-tmp");
    fs.delete(output, true);
    fs.delete(tmp, true);
    PaperQuery query = PaperQueries.of(name, Integer.parseInt(args[4]));
    return mode.equals("stock")
        ? QueryRuns.stock(query.chain(conf, web, tmp, output), fs, output)
        : QueryRuns.piranha(
            conf, MrChain.of(name, conf, query.chain(conf, web, tmp, output)), fs, output);
  }
}
