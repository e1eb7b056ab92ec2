package dev.levee.sponge.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.security.token.Token;

/**
 * Reads the secret MapReduce hands the {@code mapreduce_shuffle} aux service when an application
 * starts on a node: the job's shuffle token, serialized as the ShuffleHandler's {@code
 * serializeServiceData} writes it; its password is the job's shuffle secret, which every task of
 * the job also holds in its credentials. (Other services named in {@code
 * mapreduce.job.shuffle.provider.services} get an empty buffer: see {@link JobSecretDrop}.)
 */
final class JobTokenServiceData {
  private JobTokenServiceData() {}

  /** The token's password, or empty when there is no (readable) token. */
  static Optional<byte[]> secret(ByteBuffer serviceData) {
    if (serviceData == null || !serviceData.hasRemaining()) {
      return Optional.empty();
    }
    try {
      DataInputByteBuffer in = new DataInputByteBuffer();
      in.reset(serviceData.duplicate());
      Token<?> token = new Token<>();
      token.readFields(in);
      byte[] password = token.getPassword();
      return password == null || password.length == 0 ? Optional.empty() : Optional.of(password);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
