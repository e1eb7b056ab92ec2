package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Range;
import dev.levee.bench.cli.Validated;
import java.util.List;
import picocli.CommandLine.Option;

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
public final class GraphDataset implements Dataset<GraphDataset.Options> {
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

  /** The dataset's options. */
  public static final class Options implements Validated {
    @Option(
        names = "--vertices",
        paramLabel = "N",
        description = "vertex ids 0..N-1 (give --records N too)")
    @Range(min = 2)
    long vertices = 1_000_000;

    @Option(names = "--min-degree", paramLabel = "K", description = "fewest out-links of a vertex")
    @Range(min = 0, max = 1_000_000)
    int minDegree = 5;

    @Option(names = "--max-degree", paramLabel = "K", description = "most out-links of a vertex")
    @Range(min = 0, max = 1_000_000)
    int maxDegree = 30;

    @Option(
        names = "--in-s",
        paramLabel = "S",
        description = "Zipf exponent of in-degree (larger is more skewed)")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double inS = 0.8;

    @Override
    public void validate() {
      if (maxDegree < minDegree) {
        throw new BadArgumentException(
            "--max-degree: must be >= --min-degree (" + minDegree + "), got " + maxDegree);
      }
    }
  }

  @Override
  public Options newOptions() {
    return new Options();
  }

  @Override
  public RecordGenerator configure(long seed, Options o) {
    ZipfSampler targets = new ZipfSampler(o.vertices, o.inS);
    return new Generator(
        seed, o.vertices, targets, o.minDegree, o.maxDegree, RecordBuffer.digits(o.vertices - 1));
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
