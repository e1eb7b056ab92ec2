package dev.levee.piranha.pig;

import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.exec.StepChain;
import dev.levee.piranha.exec.StepTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.WritableSerialization;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.jobcontrol.Job;
import org.apache.hadoop.mapred.jobcontrol.JobControl;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.JobControlCompiler;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MapReduceOper;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PiranhaMroAccess;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.plans.MROperPlan;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.PigContext;
import org.apache.pig.impl.plan.PlanException;

/**
 * A Pig script's MapReduce plan, compiled by Pig itself, as a Piranha DAG whose stages run Pig's
 * own map, combine and reduce classes with the configuration Pig's {@code JobControlCompiler}
 * writes for each job. Job k's map becomes a stage (initial for the first job, fed by a forward
 * edge from job k-1's reduce for the others: its tuples are pushed, not stored and loaded), and its
 * reduce a shuffle stage. The top-k pattern is rewritten before compiling: Pig's sampling job only
 * computes quantiles for a multi-reducer total order, so it is dropped and the sort job runs on one
 * reducer, where the global order needs no quantiles.
 */
final class PigDagBuilder {
  /** Distributed-cache settings every Pig job may set; the one Piranha job ships their union. */
  private static final List<String> CACHE_KEYS =
      List.of(
          "mapreduce.job.cache.files",
          "mapreduce.job.classpath.files",
          "mapreduce.job.cache.archives",
          "mapreduce.job.classpath.archives");

  /** Where Pig's JobControlCompiler lists a job's map-side and reduce-side stores. */
  private static final String MAP_STORES = "pig.map.stores";

  private static final String REDUCE_STORES = "pig.reduce.stores";

  private PigDagBuilder() {}

  static PiranhaDag build(String name, MROperPlan plan, PigContext pc, Configuration base)
      throws IOException {
    dropSampler(plan);
    JobControlCompiler jcc = new JobControlCompiler(pc, base);
    List<JobConf> jobs = new ArrayList<>();
    while (plan.size() > 0) {
      JobControl jc;
      try {
        jc = jcc.compile(plan, name);
      } catch (Exception e) {
        throw new IOException("Pig could not configure its jobs for Piranha: " + e, e);
      }
      List<Job> ready = jc.getWaitingJobs();
      if (ready.size() != 1) {
        throw new IOException("expected one ready Pig job at a time, got " + ready.size());
      }
      jobs.add(ready.get(0).getJobConf());
      // As if the job had run: the next one becomes the plan's root.
      jcc.updateMROpPlan(List.of());
    }

    List<Stage> stages = new ArrayList<>();
    Map<String, Set<String>> cache = new LinkedHashMap<>();
    String previous = null;
    for (int k = 0; k < jobs.size(); k++) {
      JobConf job = jobs.get(k);
      boolean last = k == jobs.size() - 1;
      collectCache(job, cache);
      String mapName = "pig" + (k + 1) + "_map";
      Map<String, String> mapConf = new LinkedHashMap<>(Step.of(Step.Kind.MAP, job, base).conf());
      Stage map;
      if (previous == null) {
        map =
            new Stage(mapName, Stage.SPLITS, List.of(), List.of(new Step(Step.Kind.MAP, mapConf)));
      } else {
        mapConf.put(StepChain.SPLIT_FACTORY, PigSplitFactory.class.getName());
        map =
            new Stage(
                mapName,
                Stage.SAME_AS_PARENT,
                List.of(previous),
                List.of(new Step(Step.Kind.MAP, mapConf)));
      }
      stages.add(map);
      previous = mapName;
      int reduces = job.getNumReduceTasks();
      if (reduces > 0) {
        Map<String, String> reduceConf =
            new LinkedHashMap<>(Step.of(Step.Kind.REDUCE, job, base).conf());
        if (!last) {
          // Pig's reducers write (null, tuple), whatever output classes the job declares.
          reduceConf.put(StepTypes.OUTPUT_KEY, Text.class.getName());
          reduceConf.put(StepTypes.OUTPUT_VALUE, Tuple.class.getName());
        } else {
          storeAsMapSide(job, reduceConf);
        }
        String reduceName = "pig" + (k + 1) + "_reduce";
        stages.add(
            new Stage(
                reduceName,
                reduces,
                List.of(mapName),
                List.of(new Step(Step.Kind.REDUCE, reduceConf))));
        previous = reduceName;
      } else if (!last) {
        mapConf.put(StepTypes.OUTPUT_KEY, Text.class.getName());
        mapConf.put(StepTypes.OUTPUT_VALUE, Tuple.class.getName());
        stages.set(stages.size() - 1, map.withSteps(List.of(new Step(Step.Kind.MAP, mapConf))));
      }
    }
    Map<String, String> dagConf = new LinkedHashMap<>();
    dagConf.put(
        "io.serializations",
        PigTupleSerialization.class.getName()
            + ","
            + base.get("io.serializations", WritableSerialization.class.getName()));
    cache.forEach((k, v) -> dagConf.put(k, String.join(",", v)));
    return new PiranhaDag(name, stages, dagConf);
  }

  /**
   * The terminal stage runs Pig's reduce, but in a map task: Pig's output committer picks the map
   * or the reduce stores by the task's type, so a reduce-side store would never be committed. The
   * terminal stage therefore lists it as a map-side store (the single-store record writer takes
   * whichever list holds the one store).
   */
  private static void storeAsMapSide(JobConf job, Map<String, String> reduceConf) {
    String reduceStores = job.get(REDUCE_STORES);
    String mapStores = job.get(MAP_STORES);
    if (reduceStores != null) {
      reduceConf.put(MAP_STORES, reduceStores);
      if (mapStores != null) {
        reduceConf.put(REDUCE_STORES, mapStores);
      }
    }
  }

  /** Removes the sampling job before an ORDER ... LIMIT and sorts on one reducer instead. */
  private static void dropSampler(MROperPlan plan) throws IOException {
    for (MapReduceOper sampler : new ArrayList<>(plan.getKeys().values())) {
      if (!sampler.isSampler()) {
        continue;
      }
      List<MapReduceOper> preds = plan.getPredecessors(sampler);
      List<MapReduceOper> succs = plan.getSuccessors(sampler);
      if (succs == null || succs.size() != 1 || !succs.get(0).isGlobalSort()) {
        throw new IOException("a Pig sampling job that does not feed a sort");
      }
      MapReduceOper sort = succs.get(0);
      try {
        plan.disconnect(sampler, sort);
        if (preds != null) {
          for (MapReduceOper p : new ArrayList<>(preds)) {
            plan.disconnect(p, sampler);
            plan.connect(p, sort);
          }
        }
        plan.remove(sampler);
      } catch (PlanException e) {
        throw new IOException("cannot rewrite Pig's plan: " + e, e);
      }
      // One reducer sees every key, so the order is total without quantiles; the LIMIT Pig pushed
      // into the sort (and its combiner) makes it a top-k.
      sort.setGlobalSort(false);
      sort.setLimitAfterSort(true);
      PiranhaMroAccess.setRequestedParallelism(sort, 1);
    }
  }

  private static void collectCache(JobConf job, Map<String, Set<String>> cache) {
    for (String key : CACHE_KEYS) {
      String v = job.get(key);
      if (v != null && !v.isEmpty()) {
        Set<String> all = cache.computeIfAbsent(key, x -> new LinkedHashSet<>());
        for (String s : v.split(",")) {
          all.add(s.trim());
        }
      }
    }
  }
}
