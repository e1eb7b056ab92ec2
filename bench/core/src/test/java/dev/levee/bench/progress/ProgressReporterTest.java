package dev.levee.bench.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {

  @Test
  void throttledLinesWithRateAndEta() {
    AtomicLong clock = new AtomicLong(0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressReporter p =
        new ProgressReporter(
            "generate", 1_000, "records", new PrintStream(bytes, true), 1_000, clock::get);
    for (int i = 0; i < 100; i++) {
      clock.addAndGet(5_000_000L); // 5 ms per call: 100 calls span 0.5 s, under the 1 s interval
      p.advance(1);
    }
    assertEquals(
        "", bytes.toString(StandardCharsets.UTF_8), "nothing printed before the first interval");
    clock.set(2_000_000_000L); // 2 s
    p.advance(400);
    p.advance(1); // same instant: throttled
    p.finish();
    p.close(); // finish is idempotent
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(2, lines.length, String.join("|", lines));
    assertEquals(
        "generate: 500/1000 records (50.0%), 250 records/s, elapsed 2.0s, ETA 2.0s", lines[0]);
    assertTrue(
        lines[1].startsWith("generate: 501/1000 records (50.1%)") && lines[1].endsWith(" done"),
        lines[1]);
  }
}
