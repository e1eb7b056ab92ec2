package dev.levee.themis.plan;

import java.io.PrintStream;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Phase 0 from the command line: prints the plan for a job described by its configuration, and the
 * flags that run the job with it.
 *
 * <pre>
 * hadoop jar themis-shuffle.jar dev.levee.themis.plan.ThemisPlanTool -conf my-job.xml \
 *     [-D mapreduce.input.fileinputformat.inputdir=/data/in ...] [--write /tmp/my-job.plan]
 * </pre>
 *
 * The configuration names what the job's client would set: input paths and format, mapper, map
 * output key and value classes, partitioner, reducers (and the job's jar on the classpath). With
 * {@code --write} the plan file is written and the flags point at it.
 */
public final class ThemisPlanTool extends Configured implements Tool {
  private final PrintStream out;

  public ThemisPlanTool() {
    this(System.out);
  }

  public ThemisPlanTool(PrintStream out) {
    this.out = out;
  }

  @Override
  public int run(String[] args) throws Exception {
    Path write = null;
    for (int i = 0; i < args.length; i++) {
      if ("--write".equals(args[i]) && i + 1 < args.length) {
        write = new Path(args[++i]);
      } else {
        System.err.println("usage: ThemisPlanTool [generic options] [--write PLAN_FILE]");
        System.err.println("unknown argument '" + args[i] + "'");
        return 2;
      }
    }
    JobConf job = new JobConf(getConf());
    PlanReport report = ThemisPlanner.plan(job);
    out.print(report.describe());
    Path planFile = write != null ? write : new Path("<plan file: rerun with --write PATH>");
    if (write != null) {
      ThemisPlanner.applyTo(new JobConf(job), report, write);
    }
    for (String flag : ThemisPlanner.flags(report, planFile, job.getUseNewMapper())) {
      out.println("-D " + flag);
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ThemisPlanTool(), args));
  }
}
