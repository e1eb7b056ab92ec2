package dev.levee.bench.hadoop.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.util.Properties;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PropertyConfigurator;
import org.apache.log4j.WriterAppender;
import org.apache.log4j.spi.Filter;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

class InterruptNoiseFilterTest {
  private static LoggingEvent event(Level level, String message, Throwable t) {
    return new LoggingEvent(
        Logger.class.getName(), Logger.getLogger("teardown.test"), level, message, t);
  }

  @Test
  void theClustersTeardownLinesAreDeniedAndEverythingElsePasses() {
    InterruptNoiseFilter f = new InterruptNoiseFilter();
    // As the ResourceManager, the CapacityScheduler and a DataNode print them when a cluster stops.
    assertEquals(
        Filter.DENY,
        f.decide(
            event(
                Level.ERROR,
                "Returning, interrupted : java.lang.InterruptedException: sleep interrupted",
                null)));
    assertEquals(
        Filter.DENY,
        f.decide(event(Level.ERROR, "caught", new RuntimeException(new InterruptedException()))));
    assertEquals(
        Filter.DENY,
        f.decide(event(Level.ERROR, "Command processor encountered interrupt and exit.", null)));
    assertEquals(
        Filter.NEUTRAL,
        f.decide(event(Level.ERROR, "Task attempt failed", new IOException("disk full"))));
    assertEquals(Filter.NEUTRAL, f.decide(event(Level.WARN, "slow fetch", null)));
  }

  @Test
  void theBenchsConsoleAppenderCarriesItAndTheFileAppenderDoesNot() throws IOException {
    Properties p = new Properties();
    try (InputStream in = getClass().getResourceAsStream("/log4j.properties")) {
      p.load(in);
    }
    assertEquals(
        InterruptNoiseFilter.class.getName(),
        p.getProperty("log4j.appender.console.filter.interrupts"));
    assertTrue(
        p.stringPropertyNames().stream().noneMatch(k -> k.startsWith("log4j.appender.file.filter")),
        "the file log keeps every line");

    // Configured as the properties say, the console drops the teardown line and keeps a real error.
    Properties console = new Properties();
    console.setProperty("log4j.rootLogger", "WARN, console");
    console.setProperty("log4j.appender.console", WriterAppender.class.getName());
    console.setProperty("log4j.appender.console.layout", "org.apache.log4j.SimpleLayout");
    console.setProperty(
        "log4j.appender.console.filter.interrupts",
        p.getProperty("log4j.appender.console.filter.interrupts"));
    LogManager.resetConfiguration();
    try {
      PropertyConfigurator.configure(console);
      StringWriter out = new StringWriter();
      ((WriterAppender) Logger.getRootLogger().getAppender("console")).setWriter(out);
      Logger log = Logger.getLogger("teardown.test");
      log.error("Returning, interrupted : java.lang.InterruptedException: sleep interrupted");
      log.error("the job failed");
      assertEquals("ERROR - the job failed" + System.lineSeparator(), out.toString());
    } finally {
      LogManager.resetConfiguration();
      PropertyConfigurator.configure(p); // what the rest of this JVM's tests log with
    }
  }
}
