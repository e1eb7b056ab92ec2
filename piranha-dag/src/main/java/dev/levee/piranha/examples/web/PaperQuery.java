package dev.levee.piranha.examples.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * One of the paper's three queries over web pages, one per text line ({@code url TAB domain TAB
 * language TAB spam_score TAB inlinks TAB anchor_text}), in the two forms a user has today: a chain
 * of stock MapReduce jobs (each reading what the previous one wrote) and a Pig Latin script. Both
 * give the same top k, so the chain is the oracle for every other way of running the query (Piranha
 * on the chain, Pig, Piranha's Pig path).
 */
public interface PaperQuery {
  /** The workload's name on the command line. */
  String name();

  /**
   * The stock jobs, in order; intermediate outputs go under {@code tmp}, the top k to {@code out}
   * as text lines {@code count TAB key}, most frequent first, ties by key.
   */
  List<Job> chain(Configuration conf, Path in, Path tmp, Path out) throws IOException;

  /** The same query in Pig Latin, reading {@code $in} and storing {@code $out}. */
  String pigScript();

  /**
   * Pig stores {@code key TAB count} (the order of its GENERATE); the chain's last reducer writes
   * {@code count TAB key}. Swapping the two fields makes the lines comparable.
   */
  static List<String> pigLinesAsChain(List<String> pigLines) {
    List<String> out = new ArrayList<>(pigLines.size());
    for (String l : pigLines) {
      int tab = l.lastIndexOf('\t');
      out.add(tab < 0 ? l : l.substring(tab + 1) + '\t' + l.substring(0, tab));
    }
    return out;
  }

  /** Pig's LOAD of the web data, every column typed as the generator writes it. */
  String LOAD_WEB =
      "pages = LOAD '$in' USING PigStorage('\\t') AS (url:chararray, domain:chararray,"
          + " language:chararray, spam_score:double, inlinks:long, anchor_text:chararray);";
}
