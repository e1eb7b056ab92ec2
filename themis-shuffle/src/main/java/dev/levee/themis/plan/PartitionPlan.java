package dev.levee.themis.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.io.RawComparator;

/**
 * The partition function phase 0 chose: the reducer count and the byte-weighted cut points, either
 * on key hash codes (hash policy) or on serialized keys in the job's sort order (range policy).
 * Partition p holds the keys from cut p-1 (inclusive) to cut p (exclusive), so equal keys always
 * share a partition. Stored as a small text file the partitioners read.
 */
public final class PartitionPlan {
  private static final String MAGIC = "themis-partition-plan 1";

  private final PlanPolicy policy;
  private final int reducers;
  private final int[] hashCuts;
  private final byte[][] keyCuts;

  private PartitionPlan(PlanPolicy policy, int reducers, int[] hashCuts, byte[][] keyCuts) {
    this.policy = policy;
    this.reducers = reducers;
    this.hashCuts = hashCuts;
    this.keyCuts = keyCuts;
  }

  /** Cuts on non-negative hash codes ({@code hashCode() & Integer.MAX_VALUE}), ascending. */
  public static PartitionPlan ofHashes(int reducers, int[] cuts) {
    check(reducers, cuts.length);
    for (int i = 1; i < cuts.length; i++) {
      if (cuts[i] < cuts[i - 1]) {
        throw new IllegalArgumentException("hash cuts must not decrease");
      }
    }
    return new PartitionPlan(PlanPolicy.HASH, reducers, cuts.clone(), null);
  }

  /** Cuts on serialized keys, in the job's sort order. */
  public static PartitionPlan ofKeys(int reducers, byte[][] cuts) {
    check(reducers, cuts.length);
    return new PartitionPlan(PlanPolicy.RANGE, reducers, null, cuts.clone());
  }

  private static void check(int reducers, int cuts) {
    if (reducers < 1 || cuts != reducers - 1) {
      throw new IllegalArgumentException(
          reducers + " reducers need " + (reducers - 1) + " cuts, not " + cuts);
    }
  }

  public PlanPolicy policy() {
    return policy;
  }

  public int reducers() {
    return reducers;
  }

  /** The partition of a key whose hashCode() is {@code hash}. */
  public int partitionOfHash(int hash) {
    int h = hash & Integer.MAX_VALUE;
    // Number of cuts <= h.
    int lo = 0;
    int hi = hashCuts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (hashCuts[mid] <= h) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The partition of a serialized key. */
  public int partitionOfKey(byte[] key, int start, int length, RawComparator<?> comparator) {
    int lo = 0;
    int hi = keyCuts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] cut = keyCuts[mid];
      if (comparator.compare(cut, 0, cut.length, key, start, length) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  public void write(OutputStream out) {
    PrintWriter w = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
    w.println(MAGIC);
    w.println("policy " + policy.name().toLowerCase(java.util.Locale.ROOT));
    w.println("reducers " + reducers);
    if (hashCuts != null) {
      for (int c : hashCuts) {
        w.println("cut " + c);
      }
    } else {
      Base64.Encoder b64 = Base64.getEncoder();
      for (byte[] k : keyCuts) {
        w.println("key " + b64.encodeToString(k));
      }
    }
    w.flush();
  }

  public static PartitionPlan read(InputStream in, String where) throws IOException {
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String first = r.readLine();
    if (!MAGIC.equals(first)) {
      throw new IOException(where + " is not a Themis partition plan (first line: " + first + ")");
    }
    PlanPolicy policy = null;
    int reducers = -1;
    List<Integer> hashes = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    Base64.Decoder b64 = Base64.getDecoder();
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      int space = line.indexOf(' ');
      String field = space < 0 ? line : line.substring(0, space);
      String value = space < 0 ? "" : line.substring(space + 1);
      switch (field) {
        case "policy" -> policy = PlanPolicy.valueOf(value.toUpperCase(java.util.Locale.ROOT));
        case "reducers" -> reducers = Integer.parseInt(value);
        case "cut" -> hashes.add(Integer.parseInt(value));
        case "key" -> keys.add(b64.decode(value));
        default -> throw new IOException(where + ": unknown line '" + line + "'");
      }
    }
    if (policy == PlanPolicy.HASH) {
      return ofHashes(reducers, hashes.stream().mapToInt(Integer::intValue).toArray());
    }
    if (policy == PlanPolicy.RANGE) {
      return ofKeys(reducers, keys.toArray(new byte[0][]));
    }
    throw new IOException(where + ": plan has no hash or range policy");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionPlan p
        && p.policy == policy
        && p.reducers == reducers
        && Arrays.equals(p.hashCuts, hashCuts)
        && Arrays.deepEquals(p.keyCuts, keyCuts);
  }

  @Override
  public int hashCode() {
    return reducers * 31 + policy.hashCode();
  }
}
