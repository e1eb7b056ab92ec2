package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.report.Figure;
import dev.levee.bench.report.ResultGroup;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.List;

/**
 * The Piranha suite's report figures, drawn by {@code ./levee report} from {@code
 * bench/results/piranha.jsonl}: every figure shows the same run (the latest), so the seconds chart
 * and the per-query breakdowns never disagree.
 */
public final class PiranhaFigures {
  static final String SUITE = "piranha";

  private PiranhaFigures() {}

  static List<Measurement> latestRun(Results results) {
    return results.latestRun(SUITE);
  }

  /** Wall seconds of every arm of the latest run. */
  public static final class Seconds implements Figure {
    @Override
    public String file() {
      return SecondsChart.FILE;
    }

    @Override
    public String caption() {
      return "Piranha (`./levee bench piranha`, the latest run): wall seconds of every query and"
          + " arm, median over the interleaved rounds with whiskers from min to max; stock arms"
          + " grey, Piranha's blue.";
    }

    @Override
    public List<String> suites() {
      return List.of(SUITE);
    }

    @Override
    public boolean canDraw(Results results) {
      return latestRun(results).stream().anyMatch(m -> m.metrics().containsKey("seconds"));
    }

    @Override
    public List<Measurement> drawnFrom(Results results) {
      return latestRun(results);
    }

    @Override
    public BufferedImage draw(Results results) {
      return SecondsChart.draw(ResultGroup.group(latestRun(results)));
    }
  }

  /** One query's breakdown (the paper's Figs 7-8) in the latest run. */
  abstract static class Breakdown implements Figure {
    private final String query;

    Breakdown(String query) {
      this.query = query;
    }

    @Override
    public String file() {
      return BreakdownChart.FILE + "-" + query + ".png";
    }

    @Override
    public String caption() {
      return "Where the time of "
          + query
          + " goes in the latest Piranha run: per arm, median seconds per phase (the chain: one"
          + " MapReduce job each; Piranha: each critical-path stage, plus fixed costs).";
    }

    @Override
    public List<String> suites() {
      return List.of(SUITE);
    }

    private List<Measurement> lines(Results results) {
      return latestRun(results).stream()
          .filter(m -> query.equals(String.valueOf(m.params().get("query"))))
          .toList();
    }

    @Override
    public boolean canDraw(Results results) {
      return lines(results).stream()
          .anyMatch(
              m ->
                  m.metrics().keySet().stream().anyMatch(k -> k.startsWith(BreakdownChart.PREFIX)));
    }

    @Override
    public List<Measurement> drawnFrom(Results results) {
      return lines(results);
    }

    @Override
    public BufferedImage draw(Results results) {
      return BreakdownChart.draw(query, ResultGroup.group(lines(results)));
    }
  }

  public static final class TopKWords extends Breakdown {
    public TopKWords() {
      super("top-k-words");
    }
  }

  public static final class TopKDomains extends Breakdown {
    public TopKDomains() {
      super("top-k-domains");
    }
  }

  public static final class NonSpamTopKAnchor extends Breakdown {
    public NonSpamTopKAnchor() {
      super("non-spam-top-k-anchor");
    }
  }
}
