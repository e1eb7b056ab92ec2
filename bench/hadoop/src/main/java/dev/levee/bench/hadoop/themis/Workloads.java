package dev.levee.bench.hadoop.themis;

import dev.levee.bench.cli.BadArgumentException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workloads {@code ./levee bench themis} knows, in the order it runs them. */
final class Workloads {
  private final Map<String, ThemisWorkload> byName = new LinkedHashMap<>();

  Workloads(List<ThemisWorkload> workloads) {
    for (ThemisWorkload w : workloads) {
      if (byName.put(w.name(), w) != null) {
        throw new IllegalArgumentException("two workloads are named " + w.name());
      }
    }
  }

  static Workloads all() {
    return new Workloads(
        List.of(
            SortWorkload.teraSort(),
            SortWorkload.paretoSized(),
            NGramCountWorkload.wordCount(),
            NGramCountWorkload.fiveGrams(),
            PageRankWorkload.powerLaw(),
            SessionsWorkload.clickLog()));
  }

  List<String> names() {
    return List.copyOf(byName.keySet());
  }

  /**
   * "all" or comma-separated names, run in the registry's order whatever order they are given in;
   * an unknown or repeated name fails naming the option and what is allowed.
   */
  List<ThemisWorkload> select(String option, String text) {
    String allowed = "all, or a comma-separated list of " + String.join(", ", byName.keySet());
    if (text.trim().equals("all")) {
      return List.copyOf(byName.values());
    }
    List<String> wanted = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String name = part.trim();
      if (!byName.containsKey(name)) {
        throw new BadArgumentException(
            "--" + option + ": unknown workload '" + name + "'; allowed: " + allowed);
      }
      if (wanted.contains(name)) {
        throw new BadArgumentException("--" + option + ": '" + name + "' is given twice");
      }
      wanted.add(name);
    }
    return byName.values().stream().filter(w -> wanted.contains(w.name())).toList();
  }
}
