package dev.levee.bench.hadoop.logs;

import java.util.Locale;
import org.apache.log4j.spi.Filter;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.ThrowableInformation;

/**
 * Keeps interrupted threads off the bench's console. Stopping an in-process cluster interrupts its
 * daemons, and several say so at WARN or ERROR (the ResourceManager's "Returning, interrupted", the
 * CapacityScheduler's bare InterruptedException, the DataNodes' command processors), just before a
 * step reports done: teardown, not a failure of the run. Configured on the console appender only
 * ({@code log4j.properties}), so the file log keeps every line; anything else passes unchanged.
 */
public final class InterruptNoiseFilter extends Filter {
  @Override
  public int decide(LoggingEvent event) {
    return isInterruption(event) ? DENY : NEUTRAL;
  }

  static boolean isInterruption(LoggingEvent event) {
    String message = event.getRenderedMessage();
    if (message != null && message.toLowerCase(Locale.ROOT).contains("interrupt")) {
      return true;
    }
    ThrowableInformation info = event.getThrowableInformation();
    for (Throwable t = info == null ? null : info.getThrowable(); t != null; t = t.getCause()) {
      if (t instanceof InterruptedException) {
        return true;
      }
    }
    return false;
  }
}
