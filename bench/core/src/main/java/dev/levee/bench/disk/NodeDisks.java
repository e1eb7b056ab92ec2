package dev.levee.bench.disk;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One emulated spindle per node of a mini cluster, for the nodes' local dirs: the paper's nodes
 * each had disks of their own, so one node's spill did not queue behind another node's map outputs.
 */
public final class NodeDisks implements AutoCloseable {
  private final List<DiskPlace> disks;

  private NodeDisks(List<DiskPlace> disks) {
    this.disks = disks;
  }

  /**
   * Mounts {@code nodes} emulated disks of {@code model} in new directories under {@code realDir}.
   */
  static NodeDisks mount(Path repoRoot, Path realDir, int nodes, DiskModel model, PrintStream err)
      throws IOException, InterruptedException {
    List<DiskPlace> disks = new ArrayList<>();
    try {
      for (int i = 0; i < nodes; i++) {
        Path work =
            realDir.resolve("levee-emulated-node" + i + "-" + ProcessHandle.current().pid());
        EmulatedDisk disk = EmulatedDisk.mount(repoRoot, work, model);
        err.println("disk: node " + i + ": " + disk);
        disks.add(DiskPlace.emulated(disk, work, err));
      }
      return new NodeDisks(disks);
    } catch (IOException | InterruptedException | RuntimeException e) {
      new NodeDisks(disks).close();
      throw e;
    }
  }

  /** Node {@code node}'s directory on its own spindle. */
  public Path dir(int node) {
    return disks.get(node).dir();
  }

  /** Unmounts every spindle (each says what it moved), even when one fails to. */
  @Override
  public void close() throws IOException, InterruptedException {
    IOException first = null;
    for (DiskPlace d : disks) {
      try {
        d.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
