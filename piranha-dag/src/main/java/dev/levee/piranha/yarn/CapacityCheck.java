package dev.levee.piranha.yarn;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a cluster can hold every task of a DAG at once, plus the ApplicationMaster, before the
 * job is submitted. YARN does not gang-schedule: a DAG that fits only in part starts some tasks
 * that then wait for children that never come. So the check asks for room for all of them: the
 * queue's free resources must cover the total, and the nodes' free room, packed node by node (a
 * container cannot span nodes, so free memory scattered in pieces smaller than a task counts for
 * nothing), must hold one container per task with the ApplicationMaster placed where it leaves the
 * most.
 *
 * <p>The check is advisory (other applications race for the same room); the runtime's bounded waits
 * are the real guard.
 */
public final class CapacityCheck {
  private CapacityCheck() {}

  /** A container size. */
  public record Resource(long memoryMb, int vcores) {
    public Resource normalized(Resource minimum) {
      long m = roundUp(Math.max(memoryMb, minimum.memoryMb), Math.max(1, minimum.memoryMb));
      int v = Math.max(vcores, Math.max(1, minimum.vcores));
      return new Resource(m, v);
    }

    private static long roundUp(long value, long step) {
      return ((value + step - 1) / step) * step;
    }

    @Override
    public String toString() {
      return memoryMb + " MB, " + vcores + " vcores";
    }
  }

  /** A node's free room: its capability minus what its containers use. */
  public record Node(String name, long freeMb, int freeVcores) {}

  /** The queue's free resources, if the scheduler reports them. */
  public record Queue(String name, long availableMb, int availableVcores) {}

  /** What the DAG needs. */
  public record Need(int tasks, Resource task, Resource am) {}

  /** The answer, with the figures that explain it. */
  public record Verdict(
      boolean fits,
      Need need,
      Resource task,
      Resource am,
      int placeableTasks,
      long freeMb,
      int freeVcores,
      Queue queue,
      String explanation) {}

  /**
   * @param minimum the scheduler's minimum allocation: requests are rounded up to multiples of it
   * @param queue null when the scheduler reports no queue statistics
   */
  public static Verdict check(Need need, List<Node> nodes, Queue queue, Resource minimum) {
    Resource task = need.task().normalized(minimum);
    Resource am = need.am().normalized(minimum);
    long freeMb = 0;
    int freeVcores = 0;
    for (Node n : nodes) {
      freeMb += Math.max(0, n.freeMb());
      freeVcores += Math.max(0, n.freeVcores());
    }
    int best = -1;
    for (int amNode = 0; amNode < nodes.size(); amNode++) {
      Node a = nodes.get(amNode);
      if (a.freeMb() < am.memoryMb() || a.freeVcores() < am.vcores()) {
        continue;
      }
      int slots = 0;
      for (int i = 0; i < nodes.size(); i++) {
        Node n = nodes.get(i);
        long mb = n.freeMb() - (i == amNode ? am.memoryMb() : 0);
        int vc = n.freeVcores() - (i == amNode ? am.vcores() : 0);
        slots += (int) Math.min(mb / task.memoryMb(), vc / task.vcores());
      }
      best = Math.max(best, slots);
    }
    long neededMb = need.tasks() * task.memoryMb() + am.memoryMb();
    int neededVcores = need.tasks() * task.vcores() + am.vcores();
    boolean nodesFit = best >= need.tasks();
    boolean queueFits =
        queue == null
            || (queue.availableMb() >= neededMb && queue.availableVcores() >= neededVcores);
    List<String> why = new ArrayList<>();
    why.add(
        String.format(
            Locale.ROOT,
            "needs %d containers at once (%d tasks of %s, and an ApplicationMaster of %s): %d MB,"
                + " %d vcores",
            need.tasks() + 1,
            need.tasks(),
            task,
            am,
            neededMb,
            neededVcores));
    why.add(
        String.format(
            Locale.ROOT,
            "the %d running nodes have %d MB and %d vcores free, room for %s",
            nodes.size(),
            freeMb,
            freeVcores,
            best < 0
                ? "no ApplicationMaster on any node"
                : best
                    + " such tasks besides the ApplicationMaster"
                    + (best < need.tasks() && freeMb >= neededMb
                        ? " (the free memory is fragmented across nodes)"
                        : "")));
    if (queue != null) {
      why.add(
          String.format(
              Locale.ROOT,
              "queue %s has %d MB and %d vcores available",
              queue.name(),
              queue.availableMb(),
              queue.availableVcores()));
    }
    return new Verdict(
        nodesFit && queueFits,
        need,
        task,
        am,
        Math.max(best, 0),
        freeMb,
        freeVcores,
        queue,
        String.join("; ", why));
  }
}
