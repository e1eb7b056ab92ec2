package dev.levee.containers.jobs;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Another tenant's task: {@code TenantIntruder <output> <host:port>...} finds the application
 * running now (the victim, whose chunks the servers hold), then submits a map-only job whose one
 * task, holding its own application's real shuffle secret, tries on every server what {@link
 * SpongeIntruder} tries: as the victim with its own secret, and as its own application (a
 * legitimate connection) reading and freeing the victim's chunk numbers with made-up capabilities.
 * Prints the task's {@code INTRUDER} lines, each server's free chunks before and after ({@code
 * POOLS_BEFORE}, {@code POOLS_AFTER}) and {@code BREACHES\t<0|1>}; exits 0 when its job ran.
 */
public final class TenantIntruder extends Configured implements Tool {
  static final String VICTIM = "levee.it.intruder.victim";
  static final String SERVERS = "levee.it.intruder.servers";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new TenantIntruder(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: TenantIntruder <output> <host:port>...");
      return 2;
    }
    Configuration conf = getConf();
    conf.set(VICTIM, SpongeIntruder.runningApplication());
    conf.setStrings(SERVERS, java.util.Arrays.copyOfRange(args, 1, args.length));
    Path output = new Path(args[0]);
    FileSystem fs = output.getFileSystem(conf);
    Path input = new Path(output.getParent(), output.getName() + "-in");
    try (var out = fs.create(new Path(input, "one-line"), true)) {
      out.write("go\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    fs.delete(output, true);
    Job job = Job.getInstance(conf, "tenant-intruder");
    job.setJarByClass(TenantIntruder.class);
    job.setMapperClass(Attack.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    if (!job.waitForCompletion(true)) {
      return 1;
    }
    for (var part : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
      try (var in = fs.open(part.getPath())) {
        for (String line :
            new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
          if (!line.isEmpty()) {
            System.out.println(line);
          }
        }
      }
    }
    return 0;
  }

  /** The task: tries everything once, in its two guises, and writes what happened. */
  public static final class Attack extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      String victim = conf.get(VICTIM);
      String own = "application_" + context.getJobID().toString().substring("job_".length());
      byte[] secret = ownSecret();
      List<SpongeServerAddress> servers = new ArrayList<>();
      for (String s : conf.getStrings(SERVERS)) {
        servers.add(NodeNames.serverOf(s, 7788));
      }
      List<SpongeIntruder.Guise> guises =
          List.of(
              new SpongeIntruder.Guise(
                  victim,
                  new Handshake.Credential(Handshake.Kind.APPLICATION, victim, secret),
                  false),
              new SpongeIntruder.Guise(
                  own, new Handshake.Credential(Handshake.Kind.APPLICATION, own, secret), true));
      List<String> lines = new ArrayList<>();
      String before = pools(servers);
      boolean breached = SpongeIntruder.tryEverything(servers, guises, lines::add);
      String after = pools(servers);
      lines.add("POOLS_BEFORE\t" + before);
      lines.add("POOLS_AFTER\t" + after);
      for (String l : lines) {
        context.write(new Text(l), NullWritable.get());
      }
      context.write(new Text("BREACHES\t" + (breached ? 1 : 0)), NullWritable.get());
    }

    /**
     * Each server's free chunks ({@code server=free/total,...}; FREE_SPACE needs no credential): a
     * chunk of the victim's freed by the attack would show as one more free chunk after it.
     */
    private static String pools(List<SpongeServerAddress> servers) throws IOException {
      StringBuilder b = new StringBuilder();
      try (SpongeClient client =
          new SpongeClient(
              ClientIdentity.ofCurrentProcess("pools-probe", "client", null),
              new StaticServerList(List.of()),
              new ClientSettings(2000, 5000, 1 << 20, 1))) {
        for (SpongeServerAddress s : servers) {
          SpongeClient.FreeSpace f = client.freeSpace(s);
          b.append(b.length() == 0 ? "" : ",")
              .append(s)
              .append('=')
              .append(f.freeChunks())
              .append('/')
              .append(f.totalChunks());
        }
      }
      return b.toString();
    }

    /** The task's own application's shuffle secret, as SpongeFiles' tasks prove it. */
    private static byte[] ownSecret() throws IOException {
      var creds = UserGroupInformation.getCurrentUser().getCredentials();
      byte[] secret = TokenCache.getShuffleSecretKey(creds);
      return secret != null ? secret : TokenCache.getJobToken(creds).getPassword();
    }
  }
}
