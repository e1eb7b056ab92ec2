package dev.levee.piranha.examples.web;

import java.util.List;

/** The paper's three queries by workload name. */
public final class PaperQueries {
  public static final List<String> NAMES =
      List.of(TopKDomainsQuery.NAME, TopKWordsQuery.NAME, NonSpamTopKAnchorQuery.NAME);

  private PaperQueries() {}

  /** The query named {@code name}, its shuffles over {@code reducers} tasks. */
  public static PaperQuery of(String name, int reducers) {
    return switch (name) {
      case TopKDomainsQuery.NAME -> new TopKDomainsQuery(reducers);
      case TopKWordsQuery.NAME -> new TopKWordsQuery(reducers);
      case NonSpamTopKAnchorQuery.NAME -> new NonSpamTopKAnchorQuery(reducers);
      default -> throw new IllegalArgumentException(name + " is not one of " + NAMES);
    };
  }
}
