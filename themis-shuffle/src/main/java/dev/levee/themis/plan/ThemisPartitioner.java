package dev.levee.themis.plan;

import dev.levee.themis.ThemisConf;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Partitioner;

/**
 * The partitioner phase 0 installs in place of HashPartitioner or TotalOrderPartitioner (both
 * APIs): it reads the plan named by {@code levee.themis.plan.path} once per JVM and sends each key
 * to the byte-weighted range its hash code (hash policy) or its serialized form in the job's sort
 * order (range policy) falls in. Equal keys always meet, as with the partitioner it replaces; range
 * partitioning keeps the reducers' outputs in total order.
 */
public class ThemisPartitioner<K, V> extends Partitioner<K, V>
    implements org.apache.hadoop.mapred.Partitioner<K, V>, Configurable {
  private static final Map<String, PartitionPlan> PLANS = new ConcurrentHashMap<>();

  private Configuration conf;
  private PartitionPlan plan;
  private RawComparator<K> comparator;
  private Serializer<K> serializer;
  private final DataOutputBuffer buffer = new DataOutputBuffer();

  @Override
  @SuppressWarnings("unchecked")
  public void setConf(Configuration conf) {
    this.conf = conf;
    String path = ThemisConf.PLAN_PATH.from(ThemisConf.source(conf));
    if (path.isEmpty()) {
      throw new IllegalStateException(
          ThemisPartitioner.class.getName()
              + " needs "
              + ThemisConf.PLAN_PATH.name()
              + ", the plan phase 0 writes; run the job with mapreduce.framework.name=levee-themis"
              + " or apply a plan with ThemisPlanner");
    }
    plan = PLANS.computeIfAbsent(path, p -> load(conf, p));
    if (plan.policy() == PlanPolicy.RANGE) {
      JobConf job = conf instanceof JobConf j ? j : new JobConf(conf);
      comparator = (RawComparator<K>) job.getOutputKeyComparator();
      serializer =
          new SerializationFactory(conf).getSerializer((Class<K>) job.getMapOutputKeyClass());
      try {
        serializer.open(buffer);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static PartitionPlan load(Configuration conf, String path) {
    Path p = new Path(path);
    try (InputStream in = p.getFileSystem(conf).open(p)) {
      return PartitionPlan.read(in, path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Themis partition plan " + path, e);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public void configure(JobConf job) {
    setConf(job);
  }

  @Override
  public int getPartition(K key, V value, int numPartitions) {
    if (numPartitions != plan.reducers()) {
      throw new IllegalStateException(
          "the Themis partition plan is for "
              + plan.reducers()
              + " reducers but the job has "
              + numPartitions
              + " (mapreduce.job.reduces was changed after phase 0)");
    }
    if (plan.policy() == PlanPolicy.HASH) {
      return plan.partitionOfHash(key.hashCode());
    }
    try {
      buffer.reset();
      serializer.serialize(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return plan.partitionOfKey(buffer.getData(), 0, buffer.getLength(), comparator);
  }
}
