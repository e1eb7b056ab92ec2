package dev.levee.bench.demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoTableTest {
  private static final String RUN = "demo-1";

  private static Measurement row(String variant, double seconds, int rep, Map<String, Object> p) {
    Map<String, Object> params = new java.util.HashMap<>(p);
    params.put(DemoTable.RUN_ID, RUN);
    params.put(DemoTable.MODULE, "spongefiles-hadoop");
    params.put(DemoTable.WORKLOAD, "median");
    return new Measurement(
        "demo-hadoop",
        variant,
        params,
        Map.of(DemoTable.SECONDS, seconds),
        rep,
        Map.of(),
        "abc",
        "t",
        "c");
  }

  @Test
  void aRowWithABoundSaysHowMuchOfStocksGapToItThePluginCloses() {
    List<Measurement> rows = new ArrayList<>();
    Map<String, Object> p = Map.of(DemoTable.CONDITION, "2 disk readers");
    double[] stock = {100, 120, 110};
    double[] plugin = {80, 90, 85};
    double[] bound = {60, 61, 59};
    for (int rep = 0; rep < 3; rep++) {
      rows.add(row(Measurement.STOCK, stock[rep], rep, p));
      rows.add(row(DemoTable.PLUGIN, plugin[rep], rep, p));
      rows.add(
          row(DemoTable.BOUND, bound[rep], rep, Map.of(DemoTable.BOUND_LABEL, "no-spill heap")));
    }
    String table = DemoTable.render(RUN, rows);
    String sponge =
        table.lines().filter(l -> l.startsWith("| spongefiles-hadoop")).findFirst().orElseThrow();
    // Medians: stock 110, plugin 85, bound 60: (110 - 85) / (110 - 60) = 50%.
    assertTrue(sponge.contains("| 110.0 | 85.0 | 0.77 |"), sponge);
    assertTrue(sponge.contains("2 disk readers; medians of 3 runs"), sponge);
    assertTrue(
        sponge.contains("no-spill heap 60.0 s; the plugin removes 50% of stock's gap to it"),
        sponge);
  }

  @Test
  void aRowWithoutABoundKeepsItsNoteEmpty() {
    String table = DemoTable.render(RUN, List.of(row(Measurement.STOCK, 10, 0, Map.of())));
    assertTrue(
        table.contains("| spongefiles-hadoop | median | 10.0 | measured | - | - |  |"), table);
  }

  @Test
  void aPluginAtOrPastTheBoundIsSaidToBeSoNeverAShareAbove100Percent() {
    // The demo's run: stock 52.1 s, SpongeFiles 50.4 s, the no-spill bound 51.0 s.
    String near = DemoTable.gapNote(52.1, 50.4, 51.0);
    assertTrue(near.contains("within noise of it") && !near.contains("%  of"), near);
    String past = DemoTable.gapNote(60.0, 40.0, 50.0);
    assertTrue(past.contains("20% faster than it"), past);
    String half = DemoTable.gapNote(70.0, 60.0, 50.0);
    assertTrue(half.contains("removes 50% of stock's gap"), half);
  }
}
