package dev.levee.piranha.pig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MapReduceOper;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.NativeMapReduceOper;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PiranhaMroAccess;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.plans.MROperPlan;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.PhysicalOperator;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.plans.PhysicalPlan;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POFilter;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POForEach;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POLimit;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POLoad;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POLocalRearrange;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POPackage;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POPartialAgg;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POPreCombinerLocalRearrange;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POStore;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.Packager;

/**
 * Which compiled Pig scripts Piranha runs: a chain of MapReduce jobs made of LOAD, FILTER, FOREACH
 * (any expression or function, FLATTEN included), GROUP (with the combiner Pig plans for algebraic
 * aggregates), ORDER ... LIMIT (a top-k: Pig's sampling job is dropped and the sort runs on one
 * task) and one STORE. Anything else (joins, UNION, SPLIT and multi-query, STREAM, native jobs,
 * RANK, an ORDER BY without LIMIT, several STOREs) is named in the reason and runs on stock Pig.
 */
final class PigPlanCheck {
  private static final List<Class<?>> OPERATORS =
      List.of(
          POLoad.class,
          POStore.class,
          POFilter.class,
          POForEach.class,
          POLocalRearrange.class,
          POPreCombinerLocalRearrange.class,
          POPartialAgg.class,
          POPackage.class,
          POLimit.class);

  private static final Map<String, String> NAMES =
      Map.ofEntries(
          Map.entry("POUnion", "UNION"),
          Map.entry("POSplit", "SPLIT or a multi-query script"),
          Map.entry("POStream", "STREAM"),
          Map.entry("POFRJoin", "a replicated JOIN"),
          Map.entry("POMergeJoin", "a merge JOIN"),
          Map.entry("POSkewedJoin", "a skewed JOIN"),
          Map.entry("POMergeCogroup", "a merge COGROUP"),
          Map.entry("POCollectedGroup", "a collected GROUP"),
          Map.entry("POCounter", "RANK"),
          Map.entry("PORank", "RANK"),
          Map.entry("PONative", "MAPREDUCE (a native job)"),
          Map.entry("PODistinct", "DISTINCT"),
          Map.entry("POCross", "CROSS"));

  private PigPlanCheck() {}

  /** Why Piranha does not run {@code plan}, or empty if it does. */
  static Optional<String> unsupported(MROperPlan plan) {
    if (plan.size() == 0) {
      return Optional.of("the script compiled to no MapReduce job");
    }
    int finalStores = 0;
    for (MapReduceOper mro : plan) {
      String job = "job " + mro.getOperatorKey();
      if (mro instanceof NativeMapReduceOper) {
        return Optional.of("it runs a native MapReduce job");
      }
      if (mro.isSkewedJoin()) {
        return Optional.of("a skewed JOIN");
      }
      if (mro.isCounterOperation() || mro.isRankOperation()) {
        return Optional.of("RANK");
      }
      if (mro.isRegularJoin()) {
        return Optional.of("JOIN");
      }
      if (mro.isGlobalSort() && PiranhaMroAccess.limit(mro) < 0) {
        return Optional.of(
            "ORDER BY without LIMIT (a total order over a sample); Piranha runs ORDER ... LIMIT");
      }
      List<MapReduceOper> preds = plan.getPredecessors(mro);
      List<MapReduceOper> succs = plan.getSuccessors(mro);
      if ((preds != null && preds.size() > 1 && !mro.isGlobalSort())
          || (succs != null && succs.size() > 1 && !feedsSampler(plan, succs))) {
        return Optional.of("its jobs do not form a chain (" + job + ")");
      }
      for (PhysicalPlan p : List.of(mro.mapPlan, mro.combinePlan, mro.reducePlan)) {
        for (PhysicalOperator op : p) {
          Optional<String> bad = operator(op);
          if (bad.isPresent()) {
            return bad;
          }
          if (op instanceof POStore st && !st.isTmpStore()) {
            finalStores++;
          }
        }
      }
    }
    if (finalStores != 1) {
      return Optional.of(finalStores + " STOREs; Piranha runs a script with one STORE");
    }
    return Optional.empty();
  }

  private static boolean feedsSampler(MROperPlan plan, List<MapReduceOper> succs) {
    List<MapReduceOper> samplers = new ArrayList<>();
    for (MapReduceOper s : succs) {
      if (s.isSampler()) {
        samplers.add(s);
      }
    }
    return succs.size() == 2 && samplers.size() == 1;
  }

  private static Optional<String> operator(PhysicalOperator op) {
    for (Class<?> ok : OPERATORS) {
      if (ok.isInstance(op)) {
        if (op instanceof POPackage pack) {
          Packager pkgr = pack.getPkgr();
          String kind = pkgr == null ? "" : pkgr.getClass().getSimpleName();
          if (kind.contains("Join")) {
            return Optional.of("JOIN (" + kind + ")");
          }
          if (kind.contains("MultiQuery")) {
            return Optional.of("a multi-query script (" + kind + ")");
          }
        }
        return Optional.empty();
      }
    }
    String simple = op.getClass().getSimpleName();
    return Optional.of(NAMES.getOrDefault(simple, simple) + " (operator " + simple + ")");
  }
}
