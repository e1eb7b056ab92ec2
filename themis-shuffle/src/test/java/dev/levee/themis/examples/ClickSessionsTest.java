package dev.levee.themis.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class ClickSessionsTest {
  @Test
  void sessionsEndAtAQuietGapOfThirtyMinutes() throws Exception {
    ClickSessions.SessionCutter cut = new ClickSessions.SessionCutter();
    long gap = ClickSessions.GAP_MS;
    assertNull(cut.add("u1", 1_000, "a"));
    assertNull(cut.add("u1", 2_000, "b"));
    assertNull(cut.add("u1", 2_000 + gap - 1, "c"), "just under the gap: same session");
    assertEquals(
        "u1\t1000\t" + (2_000 + gap - 1) + "\t3\ta\tc", cut.add("u1", 2_000 + 2 * gap - 1, "d"));
    assertEquals(
        "u1\t" + (2_000 + 2 * gap - 1) + "\t" + (2_000 + 2 * gap - 1) + "\t1\td\td",
        cut.finish("u1"));
    ClickSessions.SessionCutter backwards = new ClickSessions.SessionCutter();
    backwards.add("u2", 5_000, "a");
    assertThrows(java.io.IOException.class, () -> backwards.add("u2", 4_999, "b"));
  }

  @Test
  void sessionKeysPartitionAndGroupByUserAlone() {
    Text early = new Text("u42\t0000000000000001000");
    Text late = new Text("u42\t0000000000000999000");
    Text other = new Text("u43\t0000000000000001000");
    ClickSessions.UserPartitioner p = new ClickSessions.UserPartitioner();
    for (int partitions : new int[] {2, 7, 100}) {
      assertEquals(
          p.getPartition(early, new Text(), partitions),
          p.getPartition(late, new Text(), partitions));
    }
    ClickSessions.UserGrouping g = new ClickSessions.UserGrouping();
    assertEquals(0, g.compare(early, late));
    assertTrue(g.compare(early, other) < 0);
    byte[] a = serialized(early);
    byte[] b = serialized(late);
    byte[] c = serialized(other);
    assertEquals(0, g.compare(a, 0, a.length, b, 0, b.length));
    assertTrue(g.compare(c, 0, c.length, a, 0, a.length) > 0);
  }

  private static byte[] serialized(Text t) {
    try {
      var bytes = new java.io.ByteArrayOutputStream();
      t.write(new java.io.DataOutputStream(bytes));
      return bytes.toByteArray();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
