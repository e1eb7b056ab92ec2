package dev.levee.piranha.pig;

import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.datastorage.ConfigurationUtil;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MapReduceLauncher;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.plans.MROperPlan;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.plans.PhysicalPlan;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POStore;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.util.PlanHelper;
import org.apache.pig.impl.PigContext;
import org.apache.pig.tools.pigstats.PigStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pig's MapReduce launcher, deciding per script: Pig parses, optimizes and compiles the script to
 * MapReduce jobs as always; if the jobs are ones Piranha runs ({@link PigPlanCheck}), they run as
 * one Piranha job of Pig's own map, combine and reduce classes; otherwise, or when Piranha's
 * policies fall back, stock Pig runs the script, and one log line says why.
 */
public class PiranhaLauncher extends MapReduceLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(PiranhaLauncher.class);

  /** The log line's prefix when a script runs on stock Pig, for operators grepping logs. */
  public static final String STOCK = "Piranha: running this script on stock Pig MapReduce: ";

  @Override
  public PigStats launchPig(PhysicalPlan php, String grpName, PigContext pc) throws Exception {
    PhysicalPlan copy;
    MROperPlan mrp;
    try {
      copy = php.clone();
      mrp = compile(copy, pc);
    } catch (Exception | LinkageError e) {
      return stock(php, grpName, pc, "Pig's plan could not be compiled for Piranha: " + e);
    }
    Optional<String> unsupported = PigPlanCheck.unsupported(mrp);
    if (unsupported.isPresent()) {
      return stock(php, grpName, pc, unsupported.get() + " is not supported by Piranha");
    }
    Configuration conf = ConfigurationUtil.toConfiguration(pc.getProperties());
    PiranhaDag dag = PigDagBuilder.build(dagName(pc), mrp, pc, conf);
    List<POStore> stores = PlanHelper.getPhysicalOperators(php, POStore.class);
    PigStats[] fallback = new PigStats[1];
    RunResult r =
        new PiranhaRunner(conf)
            .overridingConflictingSettings()
            .run(
                dag,
                reason -> {
                  try {
                    fallback[0] = stock(php, grpName, pc, reason);
                  } catch (java.io.IOException | InterruptedException | RuntimeException e) {
                    throw e;
                  } catch (Exception e) {
                    throw new java.io.IOException("stock Pig failed: " + e, e);
                  }
                  return null;
                });
    if (fallback[0] != null) {
      return fallback[0];
    }
    LOG.info(
        "Piranha ran the script as {} in attempt {} ({} s): stages {}",
        r.jobIds(),
        r.attempts(),
        r.seconds(),
        r.stageNames());
    PigStats stats = new PiranhaPigStats(pc, conf, stores.get(0), r);
    LOG.info(stats.getDisplayString());
    return PigStats.start(stats);
  }

  private PigStats stock(PhysicalPlan php, String grpName, PigContext pc, String why)
      throws Exception {
    LOG.info(STOCK + why);
    return super.launchPig(php, grpName, pc);
  }

  private static String dagName(PigContext pc) {
    String job = pc.getProperties().getProperty(PigContext.JOB_NAME, "pig");
    String n = job.replaceAll("[^A-Za-z0-9_.-]", "_");
    return n.length() > 60 ? n.substring(0, 60) : (n.isEmpty() ? "pig" : n);
  }
}
