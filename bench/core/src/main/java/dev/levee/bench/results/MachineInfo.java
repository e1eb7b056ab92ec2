package dev.levee.bench.results;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a measurement ran on: enough to tell two machines apart when comparing result files. */
public record MachineInfo(
    int cores,
    long memoryBytes,
    String os,
    String jvm,
    String cpuModel,
    long maxHeapBytes,
    double loadAverage) {

  public static MachineInfo current() {
    return new MachineInfo(
        Runtime.getRuntime().availableProcessors(),
        totalPhysicalMemory(),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        readCpuModel(),
        Runtime.getRuntime().maxMemory(),
        // A shared machine's load explains noisy figures better than anything else recorded here.
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", cores);
    m.put("memory_bytes", memoryBytes);
    m.put("os", os);
    m.put("jvm", jvm);
    m.put("cpu_model", cpuModel);
    m.put("max_heap_bytes", maxHeapBytes);
    m.put("load_average_1m", loadAverage);
    return m;
  }

  private static long totalPhysicalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  private static String readCpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or /proc hidden: fall through.
    }
    String arch = System.getProperty("os.arch");
    return arch == null ? "unknown" : "unknown " + arch;
  }
}
