package org.apache.spark.shuffle.levee.suites;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Spark's Java API suite (JUnit 5; every test starts a local context from system properties, where
 * the build sets the shuffle manager under test), with the census checking each test's contexts.
 */
@ExtendWith(CensusExtension.class)
class LeveeJavaAPISuite extends test.org.apache.spark.JavaAPISuite {}
