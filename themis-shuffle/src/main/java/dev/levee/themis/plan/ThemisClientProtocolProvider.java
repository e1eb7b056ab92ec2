package dev.levee.themis.plan;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.YARNRunner;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * Phase 0 with no job code change: {@code mapreduce.framework.name=levee-themis} makes Hadoop's job
 * client submit through this provider, which plans the job (sampling its map output) inside
 * submission, rewrites the staged job, and hands it to YARN as usual. Needs the themis-shuffle jar
 * on the submitting client's classpath (HADOOP_CLASSPATH); Hadoop finds the provider with its
 * ServiceLoader.
 */
public final class ThemisClientProtocolProvider extends ClientProtocolProvider {
  public static final String FRAMEWORK_NAME = "levee-themis";

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    if (!FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME))) {
      return null;
    }
    Configuration yarn = new Configuration(conf);
    yarn.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    YARNRunner runner = new YARNRunner(yarn);
    return (ClientProtocol)
        Proxy.newProxyInstance(
            ClientProtocol.class.getClassLoader(),
            new Class<?>[] {ClientProtocol.class},
            new PlanningSubmitter(runner, yarn));
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) throws IOException {
    if (Proxy.isProxyClass(clientProtocol.getClass())
        && Proxy.getInvocationHandler(clientProtocol) instanceof PlanningSubmitter s) {
      s.close();
    }
  }
}
