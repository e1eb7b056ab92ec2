package org.apache.spark.shuffle.levee.suites;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link SparkContextCensus} for JUnit tests: every context a test starts must run the shuffle
 * manager under test.
 */
public final class CensusExtension implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(CensusExtension.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("before", SparkContextCensus.now());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    CensusCounts before = context.getStore(NS).get("before", CensusCounts.class);
    CensusCounts started = SparkContextCensus.check(before, "'" + context.getDisplayName() + "'");
    if (started.contexts() == 0) {
      throw new AssertionError(context.getDisplayName() + " started no SparkContext");
    }
  }
}
