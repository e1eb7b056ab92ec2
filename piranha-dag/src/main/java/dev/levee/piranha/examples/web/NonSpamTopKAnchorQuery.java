package dev.levee.piranha.examples.web;

import dev.levee.piranha.examples.TopKJob;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * The paper's NonSpamTopKAnchor, its deepest chain: the k most frequent anchor-text words of pages
 * in domains whose average spam score is at most the data's mean (0.2). Three jobs, six MapReduce
 * stages: group pages by domain and keep the non-spam domains' anchors; split anchors into words
 * and count them; invert and keep the top k. The maps of the second and third jobs only reshape
 * what the previous reduce wrote: those are the paper's two redundant stages (its second and fourth
 * intermediate stages), which Piranha fuses into the reduce before them.
 */
public final class NonSpamTopKAnchorQuery implements PaperQuery {
  public static final String NAME = "non-spam-top-k-anchor";
  public static final int K = 5;

  /** The largest average spam score a kept domain may have, in thousandths. */
  public static final long MAX_AVG_SPAM_MILLIS = 200;

  private final int reducers;

  public NonSpamTopKAnchorQuery(int reducers) {
    this.reducers = reducers;
  }

  /** (domain, spam millis TAB anchor text) per page. */
  public static final class PageMapper extends Mapper<Object, Text, Text, Text> {
    private final Text domain = new Text();
    private final Text scored = new Text();

    @Override
    protected void map(Object key, Text page, Context context)
        throws IOException, InterruptedException {
      WebColumns row = WebColumns.of(page);
      if (row != null) {
        domain.set(row.domain());
        scored.set(row.spamMillis() + "\t" + row.anchorText());
        context.write(domain, scored);
      }
    }
  }

  /**
   * A domain's pages, each (spam millis TAB anchor text): its anchors, one record each, if the
   * domain's average spam score is low enough. The average needs every page before the first anchor
   * can go out, so the domain's anchors are held meanwhile.
   */
  public static final class NonSpamAnchorReducer extends Reducer<Text, Text, Text, Text> {
    private final Text anchor = new Text();

    @Override
    protected void reduce(Text domain, Iterable<Text> pages, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      long count = 0;
      List<String> anchors = new ArrayList<>();
      for (Text p : pages) {
        String s = p.toString();
        int tab = s.indexOf('\t');
        sum += Long.parseLong(s.substring(0, tab));
        count++;
        anchors.add(s.substring(tab + 1));
      }
      // Pig's AVG over longs divides the exact long sum by the count, as here.
      if (sum / (double) count <= MAX_AVG_SPAM_MILLIS) {
        for (String a : anchors) {
          anchor.set(a);
          context.write(domain, anchor);
        }
      }
    }
  }

  /** (word, 1) per space-separated word of an anchor text. */
  public static final class AnchorWordMapper extends Mapper<Text, Text, Text, LongWritable> {
    private final Text word = new Text();
    private final LongWritable one = new LongWritable(1);

    @Override
    protected void map(Text domain, Text anchor, Context context)
        throws IOException, InterruptedException {
      StringTokenizer t = new StringTokenizer(anchor.toString(), " ");
      while (t.hasMoreTokens()) {
        word.set(t.nextToken());
        context.write(word, one);
      }
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Job> chain(Configuration conf, Path in, Path tmp, Path out) throws IOException {
    Path anchors = new Path(tmp, "non-spam-anchors");
    Path counts = new Path(tmp, "word-counts");

    Job nonSpam = Job.getInstance(conf, NAME + ": non-spam anchors");
    nonSpam.setJarByClass(NonSpamTopKAnchorQuery.class);
    nonSpam.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.setInputPaths(nonSpam, in);
    nonSpam.setMapperClass(PageMapper.class);
    nonSpam.setReducerClass(NonSpamAnchorReducer.class);
    nonSpam.setNumReduceTasks(reducers);
    nonSpam.setOutputKeyClass(Text.class);
    nonSpam.setOutputValueClass(Text.class);
    nonSpam.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileOutputFormat.setOutputPath(nonSpam, anchors);

    Job count = Job.getInstance(conf, NAME + ": count words");
    count.setJarByClass(NonSpamTopKAnchorQuery.class);
    count.setInputFormatClass(SequenceFileInputFormat.class);
    FileInputFormat.setInputPaths(count, anchors);
    count.setMapperClass(AnchorWordMapper.class);
    TopKJob.sumInto(count, reducers, counts);

    return List.of(nonSpam, count, TopKJob.top(conf, NAME + ": top " + K, counts, K, out));
  }

  @Override
  public String pigScript() {
    return String.join(
        "\n",
        LOAD_WEB,
        "scored = FOREACH pages GENERATE domain,"
            + " (long) ROUND(spam_score * 1000.0) AS spam_millis, anchor_text;",
        "by_domain = GROUP scored BY domain PARALLEL " + reducers + ";",
        "non_spam = FILTER by_domain BY AVG(scored.spam_millis) <= " + MAX_AVG_SPAM_MILLIS + ".0;",
        "anchors = FOREACH non_spam GENERATE FLATTEN(scored.anchor_text) AS anchor_text;",
        "words = FOREACH anchors GENERATE FLATTEN(TOKENIZE(anchor_text, ' ')) AS word;",
        "by_word = GROUP words BY word PARALLEL " + reducers + ";",
        "counts = FOREACH by_word GENERATE group AS word, COUNT_STAR(words) AS n;",
        "ordered = ORDER counts BY n DESC, word ASC;",
        "top = LIMIT ordered " + K + ";",
        "STORE top INTO '$out';");
  }
}
