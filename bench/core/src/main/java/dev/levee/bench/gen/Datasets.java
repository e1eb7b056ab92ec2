package dev.levee.bench.gen;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The datasets {@code generate} knows, by name. */
public final class Datasets {
  private final Map<String, Dataset<?>> byName = new LinkedHashMap<>();

  public Datasets(List<Dataset<?>> datasets) {
    for (Dataset<?> d : datasets) {
      if (byName.put(d.name(), d) != null) {
        throw new IllegalArgumentException("two datasets are named " + d.name());
      }
    }
  }

  public static Datasets builtIn() {
    return new Datasets(
        List.of(
            KeyValueDataset.zipf(),
            KeyValueDataset.uniform(),
            KeyValueDataset.pareto(),
            new TeraSortDataset(),
            new WebDataset(),
            new TextDataset(),
            new GraphDataset(),
            new ClickDataset()));
  }

  public Dataset<?> get(String name) {
    Dataset<?> d = byName.get(name);
    if (d == null) {
      throw new BadArgumentException(
          "unknown dataset '" + name + "'; allowed: " + String.join(", ", byName.keySet()));
    }
    return d;
  }

  /**
   * A generator configured from options given in code (as the suites and the demo do) rather than
   * on a command line; the same validation applies, so a bad value names the option and what is
   * allowed.
   */
  public RecordGenerator configure(String name, long seed, Map<String, String> options) {
    List<String> args = new ArrayList<>();
    options.forEach(
        (key, value) -> {
          args.add("--" + key);
          args.add(value);
        });
    return configure(name, seed, args);
  }

  /** The same from arguments written as on the command line ({@code --s 1.2}). */
  public RecordGenerator configure(String name, long seed, List<String> args) {
    return configure(get(name), seed, args);
  }

  private static <O> RecordGenerator configure(Dataset<O> dataset, long seed, List<String> args) {
    return dataset.configure(seed, OptionsCommand.parse(dataset.newOptions(), args));
  }

  public List<Dataset<?>> all() {
    return List.copyOf(byName.values());
  }
}
