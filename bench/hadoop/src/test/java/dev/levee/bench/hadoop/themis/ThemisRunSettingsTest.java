package dev.levee.bench.hadoop.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The themis suite's options are checked before any disk is mounted or cluster started. */
class ThemisRunSettingsTest {
  private static ThemisRunSettings parse(String... args) {
    return ThemisRunSettings.from(
        OptionsCommand.parse(new ThemisRunSettings.Options(), List.of(args)));
  }

  @Test
  void defaultsGiveReducersTheMapsHeapAndRoomForTwoContainersPerNode() {
    ThemisRunSettings s = parse();
    assertEquals(400, s.heapMb());
    assertEquals(400, s.reduceHeapMb());
    assertEquals(2048, s.nodeMemoryMb());
    assertEquals(560, s.reduceContainerMb());
    assertEquals(6, s.workloads().size());
    assertEquals("", s.taskJavaOpts());
  }

  @Test
  void sortRecordsOverrideTheScaleOnlyForSort() {
    ThemisRunSettings scaled = parse("--scale", "2");
    ThemisWorkload sort = scaled.workloads().get(0);
    assertEquals(SortWorkload.NAME, sort.name());
    assertEquals(6_400_000, scaled.recordsOf(sort));
    ThemisRunSettings given = parse("--scale", "2", "--records", "5000");
    assertEquals(5_000, given.recordsOf(sort));
    ThemisWorkload other = given.workloads().get(1);
    assertEquals(Math.round(other.defaultRecords() * 2.0), given.recordsOf(other));
  }

  @Test
  void aLargeReduceHeapWidensTheNodes() {
    ThemisRunSettings s = parse("--reduce-heap-mb", "2000");
    assertEquals(512 + 2 * 2160, s.nodeMemoryMb());
  }

  @Test
  void badValuesAreRefusedWithTheOptionAndItsRange() {
    String maps = assertThrows(BadArgumentException.class, () -> parse("--maps", "0")).getMessage();
    assertTrue(maps.contains("--maps"), maps);
    String node =
        assertThrows(BadArgumentException.class, () -> parse("--node-memory-mb", "600"))
            .getMessage();
    assertTrue(node.contains("--node-memory-mb") && node.contains("1072"), node);
    String variants =
        assertThrows(BadArgumentException.class, () -> parse("--variants", "fastest")).getMessage();
    assertTrue(variants.contains("fastest"), variants);
  }
}
