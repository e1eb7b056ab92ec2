package dev.levee.piranha.mr;

import dev.levee.config.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MapReduce settings a push DAG cannot run under, and the value Piranha forces:
 *
 * <ul>
 *   <li>uber mode runs a job's tasks one after another in the ApplicationMaster: a parent waiting
 *       for its child would wait forever;
 *   <li>speculative maps and map retries start a second copy of a task that registers and pushes
 *       again (its first copy's pushes are already held); AM retries with recovery rerun only the
 *       unfinished tasks, whose parents are gone: a failure reruns the whole job instead;
 *   <li>a running-map limit below the task count, and opportunistic containers, leave some tasks
 *       queued behind tasks that wait for them;
 *   <li>output committer algorithm 2 moves task output into place at task commit, so a failed
 *       attempt would leave part of its output visible.
 * </ul>
 *
 * A value that comes from the cluster's site or default files is overridden with one warning per
 * key; a conflicting value the user set for this job (in code or with -D) is refused, naming the
 * key, because silently changing an explicit choice would hide a mistake.
 */
public final class ForcedSettings {
  private static final Logger LOG = LoggerFactory.getLogger(ForcedSettings.class);

  /** Key, forced value, and why. */
  public static final Map<String, String[]> FORCED = new LinkedHashMap<>();

  static {
    FORCED.put(
        "mapreduce.job.ubertask.enable",
        new String[] {
          "false", "uber mode runs tasks one at a time, so a parent would wait forever"
        });
    FORCED.put(
        "mapreduce.map.speculative",
        new String[] {"false", "a speculative copy of a task would push its output twice"});
    FORCED.put(
        "mapreduce.map.maxattempts",
        new String[] {"1", "a retried task's parents are gone; Piranha reruns the whole job"});
    FORCED.put(
        "mapreduce.am.max-attempts",
        new String[] {"1", "a recovered AM reruns only unfinished tasks, whose parents are gone"});
    FORCED.put(
        "mapreduce.job.running.map.limit",
        new String[] {"0", "a limit below the task count starves the tasks others wait for"});
    FORCED.put(
        "mapreduce.job.num-opportunistic-maps-percent",
        new String[] {"0", "opportunistic containers may be queued behind the tasks that wait"});
    FORCED.put(
        "mapreduce.fileoutputcommitter.algorithm.version",
        new String[] {"1", "algorithm 2 makes a failed attempt's partial output visible"});
  }

  private ForcedSettings() {}

  /**
   * Forces every setting on {@code conf}; returns the keys it overrode. Throws naming the key when
   * the user chose a conflicting value.
   */
  public static List<String> apply(Configuration conf) {
    return apply(conf, true);
  }

  /**
   * As {@link #apply(Configuration)}; with {@code rejectUserValues} false, a conflicting value the
   * user set is overridden with a warning too.
   */
  public static List<String> apply(Configuration conf, boolean rejectUserValues) {
    List<String> overridden = new ArrayList<>();
    for (Map.Entry<String, String[]> e : FORCED.entrySet()) {
      String key = e.getKey();
      String forced = e.getValue()[0];
      String current = conf.getTrimmed(key);
      if (current != null && !current.equalsIgnoreCase(forced)) {
        if (rejectUserValues && setByUser(conf, key)) {
          throw new ConfigException(
              key, current, forced + " for a Piranha job (" + e.getValue()[1] + ")");
        }
        overridden.add(key);
        if (fromDefaultsOnly(conf, key)) {
          LOG.debug("Piranha sets {}={} over Hadoop's default {}", key, forced, current);
        } else {
          LOG.warn(
              "Piranha overrides {}={} from {} with {}: {}",
              key,
              current,
              String.join(",", sources(conf, key)),
              forced,
              e.getValue()[1]);
        }
      }
      conf.set(key, forced, "Piranha (forced)");
    }
    // The job is map-only, whatever the run's configuration says for stock jobs.
    conf.setInt("mapreduce.job.reduces", 0);
    if (conf.getBoolean("mapreduce.job.encrypted-intermediate-data", false)) {
      throw new ConfigException(
          "mapreduce.job.encrypted-intermediate-data",
          "true",
          "false for a Piranha job: Piranha pushes intermediate data over the network and spills"
              + " it unencrypted; run this job as stock MapReduce instead");
    }
    return overridden;
  }

  /** Set in code or on the command line for this job, rather than by a site or default file. */
  static boolean setByUser(Configuration conf, String key) {
    for (String s : sources(conf, key)) {
      if (s.equals("programmatically") || s.contains("command line")) {
        return true;
      }
    }
    return false;
  }

  private static boolean fromDefaultsOnly(Configuration conf, String key) {
    List<String> s = sources(conf, key);
    return !s.isEmpty() && s.stream().allMatch(x -> x.endsWith("-default.xml"));
  }

  private static List<String> sources(Configuration conf, String key) {
    String[] s = conf.getPropertySources(key);
    return s == null ? List.of() : List.of(s);
  }
}
