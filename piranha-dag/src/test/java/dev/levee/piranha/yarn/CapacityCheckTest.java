package dev.levee.piranha.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.yarn.CapacityCheck.Need;
import dev.levee.piranha.yarn.CapacityCheck.Node;
import dev.levee.piranha.yarn.CapacityCheck.Queue;
import dev.levee.piranha.yarn.CapacityCheck.Resource;
import dev.levee.piranha.yarn.CapacityCheck.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityCheckTest {
  private static final Resource MIN = new Resource(128, 1);
  private static final Resource TASK = new Resource(384, 1);
  private static final Resource AM = new Resource(512, 1);

  @Test
  void twoMiniClusterNodesHoldNineTasksBesideTheAm() {
    List<Node> nodes = List.of(new Node("a", 2048, 8), new Node("b", 2048, 8));
    assertTrue(CapacityCheck.check(new Need(9, TASK, AM), nodes, null, MIN).fits());
    Verdict ten = CapacityCheck.check(new Need(10, TASK, AM), nodes, null, MIN);
    assertFalse(ten.fits());
    assertEquals(9, ten.placeableTasks());
    assertTrue(ten.explanation().contains("needs 11 containers"), ten.explanation());
    assertTrue(ten.explanation().contains("room for 9 such tasks"), ten.explanation());
  }

  @Test
  void fragmentedMemoryHoldsNoTask() {
    // 10 nodes x 300 MB = 3000 MB free, more than 4 x 384 + 512, but no node fits a task.
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nodes.add(new Node("n" + i, 300, 4));
    }
    nodes.add(new Node("am-room", 600, 4));
    Verdict v = CapacityCheck.check(new Need(4, TASK, AM), nodes, null, MIN);
    assertFalse(v.fits());
    assertEquals(0, v.placeableTasks());
    assertTrue(v.explanation().contains("fragmented"), v.explanation());
  }

  @Test
  void requestsRoundUpToTheMinimumAllocation() {
    // 300 MB rounds up to 512 with a 256 MB minimum: a 1024 MB node holds 2, not 3.
    Verdict v =
        CapacityCheck.check(
            new Need(3, new Resource(300, 1), new Resource(256, 1)),
            List.of(new Node("a", 1024, 8), new Node("b", 256, 8)),
            null,
            new Resource(256, 1));
    assertEquals(512, v.task().memoryMb());
    assertEquals(2, v.placeableTasks());
    assertFalse(v.fits());
  }

  @Test
  void vcoresLimitToo() {
    Verdict v =
        CapacityCheck.check(
            new Need(4, new Resource(128, 2), new Resource(128, 1)),
            List.of(new Node("a", 8192, 5)),
            null,
            MIN);
    assertEquals(2, v.placeableTasks(), "(5 - 1 for the AM) / 2 vcores");
    assertFalse(v.fits());
  }

  @Test
  void theQueueHeadroomBindsEvenWhenNodesHaveRoom() {
    List<Node> nodes = List.of(new Node("a", 8192, 16));
    Verdict v =
        CapacityCheck.check(new Need(4, TASK, AM), nodes, new Queue("adhoc", 1024, 16), MIN);
    assertEquals(15, v.placeableTasks(), "(16 - 1 vcores for the AM) / 1");
    assertFalse(v.fits());
    assertTrue(v.explanation().contains("queue adhoc has 1024 MB"), v.explanation());
  }

  @Test
  void theAmGoesWhereItLeavesMostRoom() {
    // AM on b (512 free) leaves a's 1536 for 4 tasks; AM on a would leave room for 2.
    List<Node> nodes = List.of(new Node("a", 1536, 8), new Node("b", 512, 8));
    Verdict v = CapacityCheck.check(new Need(4, TASK, AM), nodes, null, MIN);
    assertTrue(v.fits());
    assertEquals(4, v.placeableTasks());
  }

  @Test
  void noNodeForTheAm() {
    Verdict v =
        CapacityCheck.check(new Need(1, TASK, AM), List.of(new Node("a", 400, 8)), null, MIN);
    assertFalse(v.fits());
    assertTrue(v.explanation().contains("no ApplicationMaster"), v.explanation());
  }
}
