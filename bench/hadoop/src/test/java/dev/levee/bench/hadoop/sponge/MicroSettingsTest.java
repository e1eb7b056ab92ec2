package dev.levee.bench.hadoop.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
import dev.levee.sponge.config.SpongeConf;
import java.util.List;
import org.junit.jupiter.api.Test;

class MicroSettingsTest {
  private static MicroSettings parse(String... args) {
    return MicroSettings.from(OptionsCommand.parse(new MicroSettings.Options(), List.of(args)));
  }

  private static String error(String... args) {
    return assertThrows(BadArgumentException.class, () -> parse(args)).getMessage();
  }

  @Test
  void defaultsAreThePapersWorkload() {
    MicroSettings s = parse();
    assertEquals(10_000, s.chunks());
    assertEquals(1 << 20, s.chunkSize());
    assertEquals(256, s.batch());
    assertEquals(
        List.of(
            Medium.LOCAL_SHM,
            Medium.LOCAL_SPONGEFILE,
            Medium.LOCAL_SERVER,
            Medium.REMOTE_SERVER,
            Medium.REMOTE_SPONGEFILE,
            Medium.REMOTE_SPONGEFILE_TWO_COPIES,
            Medium.REMOTE_SPONGEFILE_AUTH,
            Medium.REMOTE_SPONGEFILE_TLS,
            Medium.DISK,
            Medium.DISK_BACKGROUND_IO),
        s.media());
    assertEquals(
        SpongeConf.WRITE_MAX_IN_FLIGHT.defaultValue(), s.inFlight(), "a SpongeFile's own default");
  }

  @Test
  void quickPresetYieldsToExplicitOptions() {
    MicroSettings q = parse("--quick");
    assertEquals(400, q.chunks());
    assertEquals(100, q.batch());
    assertEquals(512L << 20, q.diskFileBytes());
    MicroSettings given = parse("--quick", "--chunks", "1000");
    assertEquals(1000, given.chunks());
    assertEquals(100, given.batch());
  }

  @Test
  void batchNeverExceedsTheChunks() {
    assertEquals(5, parse("--chunks", "5").batch());
  }

  @Test
  void memoryPressureMediumNeedsMemory() {
    assertTrue(error("--variants", "disk-bg-io-mem").contains("--memory-pressure is 0"));
    assertEquals(
        List.of(Medium.DISK_BACKGROUND_IO_MEMORY),
        parse("--variants", "disk-bg-io-mem", "--memory-pressure", "1g").media());
    assertEquals(Medium.values().length, parse("--memory-pressure", "1g").media().size());
  }

  @Test
  void badValuesNameTheOption() {
    assertTrue(error("--chunks", "0").startsWith("--chunks: expected a value from 1 to"));
    assertTrue(error("--chunk-size", "5000").startsWith("--chunk-size: must be a multiple of 4k"));
    assertTrue(error("--chunk-size", "128m").startsWith("--chunk-size"));
    assertTrue(error("--variants", "disk,floppy").contains("unknown medium 'floppy'"));
    String small = error("--disk-file-size", "10m");
    assertTrue(
        small.contains("--disk-file-size 10.0 MiB holds 10 chunks")
            && small.contains("--batch 256"),
        small);
    assertTrue(error("--quick", "--batch", "x").contains("'--batch': expected an integer"));
    assertTrue(error("--in-flight", "0").startsWith("--in-flight"));
    assertTrue(error("--in-flight", "65").startsWith("--in-flight"));
  }

  @Test
  void memoryPressureLeavesAReserve() {
    MemoryPressure.checkAffordable("memory-pressure", 1L << 30, 8L << 30);
    String m =
        assertThrows(
                BadArgumentException.class,
                () -> MemoryPressure.checkAffordable("memory-pressure", 7L << 30, 8L << 30))
            .getMessage();
    assertTrue(m.contains("--memory-pressure") && m.contains("at most 6144 MiB"), m);
  }
}
