package dev.levee.bench.gen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.progress.ProgressReporter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Streams a generated dataset into a directory of any Hadoop {@link FileSystem} (file://, hdfs://,
 * ...) as {@code part-00000 .. part-NNNNN}, one file per intended mapper, plus {@code
 * _dataset.json} describing it.
 *
 * <p>Memory use is one small record buffer per thread whatever the size of the dataset. File f
 * holds records [f*R/N, (f+1)*R/N), and every record depends only on the seed and its number, so
 * the concatenated parts are the same bytes for any N and any thread count. The manifest is written
 * last: its presence marks a complete dataset. Names starting with "_" are skipped by Hadoop's
 * FileInputFormat, so jobs read the parts only.
 */
public final class DatasetWriter {
  public static final String MANIFEST = "_dataset.json";
  private static final int FLUSH_BYTES = 256 * 1024;

  /** What to write where. */
  public record Plan(String outUri, long records, int files, int threads, boolean overwrite) {}

  /** What was written. */
  public record Result(Path dir, long records, long bytes, List<Path> files, double seconds) {}

  private final Configuration conf;

  public DatasetWriter(Configuration conf) {
    this.conf = conf;
  }

  /**
   * {@link #write} of the built-in data set {@code datasetName} configured with {@code options}.
   */
  public Result writeBuiltIn(
      String datasetName,
      long seed,
      Map<String, String> options,
      Plan plan,
      ProgressReporter progress)
      throws IOException, InterruptedException {
    return write(
        datasetName,
        seed,
        Datasets.builtIn().configure(datasetName, seed, options),
        options,
        plan,
        progress);
  }

  public Result write(
      String datasetName,
      long seed,
      RecordGenerator generator,
      Map<String, String> options,
      Plan plan,
      ProgressReporter progress)
      throws IOException, InterruptedException {
    if (plan.files() < 1 || plan.records() < 0 || plan.threads() < 1) {
      throw new IllegalArgumentException("bad plan " + plan);
    }
    long startNanos = System.nanoTime();
    Path dir = new Path(plan.outUri());
    FileSystem fs = dir.getFileSystem(conf);
    // Benchmark inputs are throwaway: no .crc side files on the local file system.
    fs.setWriteChecksum(false);
    if (fs.exists(dir)) {
      if (!plan.overwrite()) {
        throw new BadArgumentException(
            "--out: " + fs.makeQualified(dir) + " already exists; pass --overwrite to replace it");
      }
      fs.delete(dir, true);
    }
    if (!fs.mkdirs(dir)) {
      throw new IOException("could not create " + fs.makeQualified(dir));
    }

    int width = Math.max(5, RecordBuffer.digits(plan.files() - 1));
    List<Path> parts = new ArrayList<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(plan.threads(), plan.files()),
            r -> {
              Thread t = new Thread(r, "levee-generate");
              t.setDaemon(true);
              return t;
            });
    long bytes = 0;
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int f = 0; f < plan.files(); f++) {
        long from = Math.multiplyExact(plan.records(), (long) f) / plan.files();
        long to = Math.multiplyExact(plan.records(), (long) f + 1) / plan.files();
        Path part = new Path(dir, "part-" + String.format("%0" + width + "d", f));
        parts.add(part);
        RecordGenerator own = generator.copy();
        futures.add(pool.submit(() -> writePart(fs, part, own, from, to, progress)));
      }
      for (Future<Long> fu : futures) {
        bytes += fu.get();
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause);
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    writeManifest(fs, dir, datasetName, seed, generator, options, plan, bytes);
    return new Result(fs.makeQualified(dir), plan.records(), bytes, parts, seconds);
  }

  private static long writePart(
      FileSystem fs,
      Path part,
      RecordGenerator generator,
      long from,
      long to,
      ProgressReporter progress)
      throws IOException {
    SplitMix64 rng = new SplitMix64(0);
    RecordBuffer buf = new RecordBuffer(FLUSH_BYTES + 4096);
    long written = 0;
    long pending = 0;
    try (OutputStream out = new BufferedOutputStream(fs.create(part, false), 1 << 20)) {
      for (long i = from; i < to; i++) {
        generator.write(i, rng, buf);
        pending++;
        if (buf.size() >= FLUSH_BYTES) {
          buf.writeTo(out);
          written += buf.size();
          buf.clear();
          progress.advance(pending);
          pending = 0;
          if (Thread.currentThread().isInterrupted()) {
            throw new IOException("interrupted while writing " + part);
          }
        }
      }
      buf.writeTo(out);
      written += buf.size();
      progress.advance(pending);
    }
    return written;
  }

  private static void writeManifest(
      FileSystem fs,
      Path dir,
      String datasetName,
      long seed,
      RecordGenerator generator,
      Map<String, String> options,
      Plan plan,
      long bytes)
      throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dataset", datasetName);
    m.put("seed", seed);
    m.put("records", plan.records());
    m.put("files", plan.files());
    m.put("bytes", bytes);
    m.put("format", "text, one record per line, fields separated by TAB");
    m.put("columns", generator.columns());
    m.put("options", options);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try (OutputStream out = fs.create(new Path(dir, MANIFEST), true)) {
      mapper.writeValue(out, m);
    }
  }
}
