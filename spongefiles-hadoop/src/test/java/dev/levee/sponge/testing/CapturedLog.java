package dev.levee.sponge.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * The log events of this JVM (in-process jobs included) while it is open, for tests that assert
 * what an operator would read: how many warnings, and what they say.
 */
public final class CapturedLog extends AppenderSkeleton implements AutoCloseable {
  private final List<LoggingEvent> events = new ArrayList<>();

  private CapturedLog() {}

  public static CapturedLog start() {
    CapturedLog log = new CapturedLog();
    Logger.getRootLogger().addAppender(log);
    return log;
  }

  @Override
  protected synchronized void append(LoggingEvent event) {
    events.add(event);
  }

  /** Messages at {@code level} or above from loggers whose name starts with {@code prefix}. */
  public synchronized List<String> messages(Level level, String prefix) {
    List<String> out = new ArrayList<>();
    for (LoggingEvent e : events) {
      if (e.getLevel().isGreaterOrEqual(level) && e.getLoggerName().startsWith(prefix)) {
        out.add(e.getRenderedMessage());
      }
    }
    return out;
  }

  /** The stack traces logged at {@code level} or above by loggers under {@code prefix}, whole. */
  public synchronized List<String> throwables(Level level, String prefix) {
    List<String> out = new ArrayList<>();
    for (LoggingEvent e : events) {
      if (e.getLevel().isGreaterOrEqual(level)
          && e.getLoggerName().startsWith(prefix)
          && e.getThrowableStrRep() != null) {
        out.add(String.join("\n", e.getThrowableStrRep()));
      }
    }
    return out;
  }

  @Override
  public void close() {
    Logger.getRootLogger().removeAppender(this);
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
