package dev.levee.piranha.examples.web;

import dev.levee.piranha.examples.TopKJob;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * The paper's TopKDomains: the k domains with the most pages. Few groups (low selectivity), so
 * little data crosses each boundary and the query's time is mostly coordination. Two jobs, four
 * MapReduce stages; the second job's map (inverting the pairs) is the redundant stage.
 */
public final class TopKDomainsQuery implements PaperQuery {
  public static final String NAME = "top-k-domains";
  public static final int K = 5;
  private final int reducers;

  public TopKDomainsQuery(int reducers) {
    this.reducers = reducers;
  }

  /** (domain, 1) per page: the domain is the second column. */
  public static final class DomainMapper extends Mapper<Object, Text, Text, LongWritable> {
    private final Text domain = new Text();
    private final LongWritable one = new LongWritable(1);

    @Override
    protected void map(Object key, Text page, Context context)
        throws IOException, InterruptedException {
      WebColumns row = WebColumns.of(page);
      if (row != null) {
        domain.set(row.domain());
        context.write(domain, one);
      }
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Job> chain(Configuration conf, Path in, Path tmp, Path out) throws IOException {
    return List.of(
        TopKJob.count(conf, NAME + ": count pages", in, DomainMapper.class, reducers, tmp),
        TopKJob.top(conf, NAME + ": top " + K, tmp, K, out));
  }

  @Override
  public String pigScript() {
    return String.join(
        "\n",
        LOAD_WEB,
        "by_domain = GROUP pages BY domain PARALLEL " + reducers + ";",
        "counts = FOREACH by_domain GENERATE group AS domain, COUNT_STAR(pages) AS n;",
        "ordered = ORDER counts BY n DESC, domain ASC;",
        "top = LIMIT ordered " + K + ";",
        "STORE top INTO '$out';");
  }
}
