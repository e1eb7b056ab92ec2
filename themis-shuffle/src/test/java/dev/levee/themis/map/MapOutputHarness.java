package dev.levee.themis.map;

import dev.levee.themis.OutputOrder;
import dev.levee.themis.Overflow;
import dev.levee.themis.io.WriteStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;
import org.apache.hadoop.util.QuickSort;

/**
 * Drives the map side's sink and writer directly (no MapTask): Text keys and values in, file.out
 * and its index out, then reads every segment back with Hadoop's own {@code IFile.Reader}.
 */
final class MapOutputHarness {
  final JobConf job;
  final FileSystem rawLocal;
  final Path dir;
  final Counters counters = new Counters();
  private int files;

  MapOutputHarness(Path dir) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.job = new JobConf();
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    this.rawLocal = FileSystem.getLocal(job).getRaw();
  }

  record Written(
      org.apache.hadoop.fs.Path file,
      SpillRecord index,
      int runs,
      long fileBytes,
      WriteStats writes) {}

  record Rec(int partition, String key, String value) {}

  @SuppressWarnings("unchecked")
  Written write(
      List<Rec> records,
      int partitions,
      boolean sorted,
      long budget,
      CompressionCodec codec,
      int writeBuffer)
      throws Exception {
    Counters.Counter spilled = counters.findCounter(TaskCounter.SPILLED_RECORDS);
    MapOutputWriter<Text, Text> writer =
        new MapOutputWriter<>(
            job,
            rawLocal,
            codec,
            Text.class,
            Text.class,
            (RawComparator<Text>) job.getOutputKeyComparator(),
            new QuickSort(),
            sorted,
            null,
            null,
            spilled,
            () -> {},
            writeBuffer);
    MapSettings settings =
        new MapSettings(
            budget,
            writeBuffer,
            sorted ? OutputOrder.SORTED : OutputOrder.UNSORTED,
            true,
            Overflow.SPILL);
    int file = files++;
    MapOutputSink sink =
        new MapOutputSink(
            settings,
            writer,
            partitions,
            (n, size) -> new org.apache.hadoop.fs.Path(dir.resolve(file + "-run-" + n).toString()),
            rawLocal,
            Reporter.NULL);
    DataOutputBuffer buf = new DataOutputBuffer();
    for (Rec r : records) {
      buf.reset();
      new Text(r.key()).write(buf);
      int kl = buf.getLength();
      new Text(r.value()).write(buf);
      sink.add(r.partition(), buf.getData(), kl, buf.getLength() - kl);
    }
    org.apache.hadoop.fs.Path out =
        new org.apache.hadoop.fs.Path(dir.resolve(file + "-file.out").toString());
    int runs = sink.runs();
    SpillRecord index = sink.finish(out);
    return new Written(out, index, runs, rawLocal.getFileStatus(out).getLen(), writer.writes());
  }

  /** Every partition's records as Hadoop's IFile.Reader reads them, in segment order. */
  Map<Integer, List<String[]>> read(Written w, int partitions, CompressionCodec codec)
      throws IOException {
    Map<Integer, List<String[]>> byPartition = new TreeMap<>();
    for (int p = 0; p < partitions; p++) {
      IndexRecord seg = w.index().getIndex(p);
      FSDataInputStream in = rawLocal.open(w.file());
      in.seek(seg.startOffset);
      in = IntermediateEncryptedStream.wrapIfNecessary(job, in, w.file());
      IFile.Reader<Text, Text> reader =
          new IFile.Reader<>(job, in, seg.partLength - CryptoUtils.cryptoPadding(job), codec, null);
      List<String[]> records = new ArrayList<>();
      DataInputBuffer key = new DataInputBuffer();
      DataInputBuffer value = new DataInputBuffer();
      Text k = new Text();
      Text v = new Text();
      while (reader.nextRawKey(key)) {
        reader.nextRawValue(value);
        k.readFields(key);
        v.readFields(value);
        records.add(new String[] {k.toString(), v.toString()});
      }
      reader.close();
      byPartition.put(p, records);
    }
    return byPartition;
  }
}
