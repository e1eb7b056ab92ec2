package dev.levee.piranha.exchange;

import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.WritableUtils;

/**
 * How one serialized record is laid out in a run, in memory, on the wire and in spill files: {@code
 * [vint key length, -1 for a null key][vint value length][key bytes][value bytes]}. Null keys exist
 * because Pig's reducers write them; sorted edges refuse them.
 */
public final class Records {
  private Records() {}

  public static final int NULL_KEY = -1;

  public static void write(
      DataOutput out, byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen)
      throws IOException {
    WritableUtils.writeVInt(out, key == null ? NULL_KEY : keyLen);
    WritableUtils.writeVInt(out, valueLen);
    if (key != null) {
      out.write(key, keyOff, keyLen);
    }
    out.write(value, valueOff, valueLen);
  }

  public static int encodedSize(int keyLen, int valueLen) {
    return WritableUtils.getVIntSize(keyLen)
        + WritableUtils.getVIntSize(valueLen)
        + Math.max(keyLen, 0)
        + valueLen;
  }
}
