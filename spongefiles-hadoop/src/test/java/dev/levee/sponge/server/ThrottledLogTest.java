package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.MessageFormatter;

class ThrottledLogTest {
  @Test
  void oneLinePerKindPerPeriodAndTheNextSaysHowManyWereLeftOut() {
    List<String> lines = new ArrayList<>();
    AtomicLong now = new AtomicLong();
    ThrottledLog log =
        new ThrottledLog(
            (format, args) -> lines.add(MessageFormatter.arrayFormat(format, args).getMessage()),
            TimeUnit.SECONDS.toNanos(10),
            now::get);
    for (int i = 0; i < 1000; i++) {
      log.warn("bad", "bad frame {}", i);
      log.warn("busy", "busy {}", i);
    }
    assertEquals(List.of("bad frame 0", "busy 0"), lines);
    now.addAndGet(TimeUnit.SECONDS.toNanos(11));
    log.warn("bad", "bad frame {}", 1000);
    assertEquals(3, lines.size());
    assertEquals(
        "bad frame 1000 (999 more like this were not logged in the last 10 s)", lines.get(2));
    log.warn("bad", "bad frame {}", 1001);
    assertTrue(lines.size() == 3, "a new window starts at the line just logged");
  }
}
