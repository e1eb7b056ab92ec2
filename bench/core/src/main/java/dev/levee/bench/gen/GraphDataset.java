package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.List;

/**
 * A directed graph with power-law in-degree, one vertex per line, record number = vertex id: {@code
 * vertex TAB rank TAB target,target,...}.
 *
 * <ul>
 *   <li>vertex: the id zero-padded to the width of the largest id, so text order is id order;
 *   <li>rank: the initial PageRank in millionths (1000000 = 1.0), an integer so that summing
 *       contributions gives the same result in any order;
 *   <li>targets: a uniform number of out-links in [min-degree, max-degree], each target Zipf(s)
 *       over the vertices, so a few vertices collect most in-links (the paper's PageRank-PL); a
 *       draw of the vertex itself is moved to the next id, so there are no self-loops.
 * </ul>
 *
 * Generate exactly {@code --vertices} records for every target to have its own line.
 */
public final class GraphDataset implements Dataset {
  public static final long INITIAL_RANK = 1_000_000;
  private static final long EDGES_STREAM = 31;

  @Override
  public String name() {
    return "graph";
  }

  @Override
  public String summary() {
    return "graph vertices: id, initial rank (millionths), out-links with Zipf(s) in-degree";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional("vertices", "N", "vertex ids 0..N-1 (give --records N too)", "1000000"),
        OptionSpec.optional("min-degree", "K", "fewest out-links of a vertex", "5"),
        OptionSpec.optional("max-degree", "K", "most out-links of a vertex", "30"),
        OptionSpec.optional(
            "in-s", "S", "Zipf exponent of in-degree (> 0; larger is more skewed)", "0.8"));
  }

  @Override
  public RecordGenerator configure(long seed, ParsedOptions options) {
    long vertices = options.longAtLeast("vertices", 2);
    int min = options.intIn("min-degree", 0, 1_000_000);
    int max = options.intIn("max-degree", 0, 1_000_000);
    if (max < min) {
      throw new BadArgumentException(
          "--max-degree: must be >= --min-degree (" + min + "), got " + max);
    }
    ZipfSampler targets = new ZipfSampler(vertices, options.doubleIn("in-s", 0, 100, true));
    return new Generator(seed, vertices, targets, min, max, RecordBuffer.digits(vertices - 1));
  }

  private record Generator(
      long seed, long vertices, ZipfSampler targets, int minDegree, int maxDegree, int width)
      implements RecordGenerator {
    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, EDGES_STREAM, index);
      out.zeroPadded(index, width).tab().decimal(INITIAL_RANK).tab();
      int degree = minDegree + rng.nextInt(maxDegree - minDegree + 1);
      for (int e = 0; e < degree; e++) {
        long target = targets.sample(rng) - 1;
        if (target == index) {
          target = (target + 1) % vertices;
        }
        if (e > 0) {
          out.append(',');
        }
        out.zeroPadded(target, width);
      }
      out.newline();
    }

    @Override
    public List<String> columns() {
      return List.of("vertex", "rank_millionths", "targets");
    }

    @Override
    public RecordGenerator copy() {
      return this; // all state lives in the rng the caller passes
    }
  }
}
