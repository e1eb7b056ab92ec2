package dev.levee.sponge.config;

import static dev.levee.config.ValueTypes.bool;
import static dev.levee.config.ValueTypes.bytes;
import static dev.levee.config.ValueTypes.decimal;
import static dev.levee.config.ValueTypes.intBytes;
import static dev.levee.config.ValueTypes.ints;
import static dev.levee.config.ValueTypes.longs;

import dev.levee.config.ConfigKey;
import dev.levee.config.ConfigRegistry;
import dev.levee.config.ConfigSource;
import dev.levee.config.ValueType;
import dev.levee.config.ValueTypes;
import dev.levee.sponge.local.ChunkOwner;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@code levee.sponge.*} setting: the pool and chunk geometry every process on a node shares,
 * the tiers a task spills to, the node's sponge server, the tracker in ZooKeeper, and the
 * reduce-side plugin. Values are read only through these keys ({@link SpongeConfig} for a task's
 * files, {@link SpongeServerConfig} for a server); the module README's table is generated from
 * here.
 *
 * <p>On YARN the NodeManagers' {@code yarn-site.xml} holds the node keys; each task reads them from
 * the descriptor its node's aux service publishes, so jobs set only the plugin class and, if they
 * like, the per-task keys.
 */
public final class SpongeConf {
  private SpongeConf() {}

  private static final Logger LOG = LoggerFactory.getLogger(SpongeConf.class);
  private static final String V010 = "0.1.0";
  private static final String V020 = "0.2.0";
  private static final ConfigRegistry.Builder B =
      ConfigRegistry.builder("spongefiles", "levee.sponge.");

  /** The largest chunk: a chunk is one mapped region and one array. */
  public static final int MAX_CHUNK_SIZE = 1 << 30;

  /** Most chunk writes a file may have in flight. */
  public static final int MAX_IN_FLIGHT_CHUNKS = 64;

  /** The smallest chunk: one page. */
  public static final int MIN_CHUNK_SIZE = 4096;

  // --- The node's pool and chunks: every process on a node must agree on these.

  public static final ConfigKey<Integer> CHUNK_SIZE =
      B.key("levee.sponge.chunk.size", intBytes(MIN_CHUNK_SIZE, MAX_CHUNK_SIZE))
          .defaultValue("1m")
          .doc(
              "Bytes per chunk, in memory and on the wire, and the size of a file's write buffer."
                  + " The paper's 1 MB balances fragmentation against a round trip per chunk."
                  + " Every process on a node must use the same value.")
          .since(V010)
          .build();

  public static final ConfigKey<Boolean> LOCAL_ENABLED =
      B.key("levee.sponge.local.enabled", bool())
          .defaultValue("true")
          .doc("Spill to this node's shared-memory sponge pool first.")
          .since(V010)
          .build();

  public static final ConfigKey<String> LOCAL_POOL_DIR =
      B.key("levee.sponge.local.pool.dir", absolutePath())
          .defaultValue("/dev/shm/levee-sponge")
          .doc(
              "Directory (on tmpfs) of the node's sponge pool. The aux service places its pool in"
                  + " <dir>/nm-<id>; tasks learn the exact place from their node.")
          .since(V010)
          .build();

  public static final ConfigKey<Long> LOCAL_POOL_SIZE =
      B.key("levee.sponge.local.pool.size", bytes(MIN_CHUNK_SIZE, Long.MAX_VALUE))
          .defaultValue("1g")
          .doc(
              "Memory of the node's sponge pool, rounded down to whole chunks. Give it the node's"
                  + " memory that task heaps leave unused.")
          .since(V010)
          .build();

  /** How a task reaches its node's shared-memory pool. */
  public enum LocalAccess {
    /** Map the pool when this process may, else go through the node's sponge server. */
    AUTO,
    /** Map the pool; a task that may not has no local-memory tier. */
    DIRECT,
    /** Never map the pool: store local chunks in the node's sponge server over loopback. */
    SERVER
  }

  public static final ConfigKey<LocalAccess> LOCAL_ACCESS =
      B.key("levee.sponge.local.access", ValueTypes.enumOf(LocalAccess.class))
          .defaultValue("auto")
          .doc(
              "How a task reaches its node's sponge memory. direct maps the pool (a memory copy,"
                  + " no round trip), which only processes of the sponge server's user may do;"
                  + " server stores the chunks in the node's sponge server over loopback, with a"
                  + " capability per chunk and the connection's job-token authentication, as for"
                  + " remote memory (for tasks of other users on a secure cluster, counted as tier"
                  + " local_server); auto maps the pool when it can and otherwise uses the server,"
                  + " saying so once per task.")
          .since(V020)
          .build();

  public static final ConfigKey<String> OWNER_HOST =
      B.key("levee.sponge.owner.host", hostName())
          .defaultValue("")
          .defaultDescription("the canonical local host name")
          .doc(
              "Host name written into chunk owner entries; must match what the node's sponge"
                  + " server uses.")
          .since(V010)
          .build();

  // --- Where a task's files go.

  public static final ConfigKey<Boolean> REMOTE_ENABLED =
      B.key("levee.sponge.remote.enabled", bool())
          .defaultValue("true")
          .doc("Spill to other nodes' sponges when the local one is full (needs the tracker).")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> REMOTE_REPLICAS =
      B.key("levee.sponge.remote.replicas", ints(1, 3))
          .defaultValue("1")
          .doc(
              "Copies of each remote chunk, each on a different server. 1 is the paper's model: a"
                  + " node that dies while holding a reducer's chunks fails that reducer's attempt,"
                  + " and Hadoop re-runs it. 2 keeps a second copy on another server, so a read"
                  + " falls over to it and the attempt survives one lost node, at twice the"
                  + " network and remote memory per chunk; a chunk that finds no second server"
                  + " goes to the next tier (local disk) instead of being kept unprotected.")
          .since("0.2.0")
          .build();

  // --- Remote placement (Scatter's batch sampling; dev.levee.sponge.placement).

  public static final ConfigKey<String> PLACEMENT_POLICY =
      B.key(
              "levee.sponge.placement.policy",
              ValueTypes.choice(
                  dev.levee.sponge.placement.BatchSamplingPolicy.NAME,
                  dev.levee.sponge.placement.FreeListPolicy.NAME))
          .defaultValue(dev.levee.sponge.placement.BatchSamplingPolicy.NAME)
          .doc(
              "How a task picks the server for each remote chunk. batch-sampling (Scatter): the"
                  + " least-loaded of levee.sponge.placement.sample-size servers sampled at random"
                  + " from the tracker's list, which is only a hint, and of the servers whose"
                  + " latest store replies reported a short queue; tasks reading the same stale"
                  + " list spread over the whole pool. free-list (the paper): the list in order,"
                  + " servers the file already uses first, so a file spans few nodes but every task"
                  + " starts on the same server.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> PLACEMENT_SAMPLE_SIZE =
      B.key("levee.sponge.placement.sample-size", ints(1, 64))
          .defaultValue("5")
          .doc(
              "K, the servers batch sampling draws for each chunk copy (the least loaded gets it)."
                  + " With M spilling tasks and N servers a server is left idle with probability"
                  + " (1 - K/N)^M; K = 5 keeps that under 0.7% at any scale.")
          .since(V020)
          .build();

  public static final ConfigKey<Double> PLACEMENT_WINDOW_FACTOR =
      B.key("levee.sponge.placement.window-factor", decimal(1, true, 16, true))
          .defaultValue("2")
          .doc(
              "Φ: batch sampling keeps at most ceil(Φ × K) remote stores of a task in flight, so"
                  + " that K are at the servers while the rest travel; Φ = 1 + network round trip"
                  + " / store time (about 2 for memory behind a LAN).")
          .since(V020)
          .build();

  public static final ConfigKey<Boolean> DISK_ENABLED =
      B.key("levee.sponge.disk.enabled", bool())
          .defaultValue("true")
          .doc("Spill to local disk when no memory is free.")
          .since(V010)
          .build();

  public static final ConfigKey<String> DISK_DIRS =
      B.key("levee.sponge.disk.dirs", absolutePathList())
          .defaultValue("")
          .defaultDescription(
              "the task's local directories (${java.io.tmpdir}/levee-sponge outside a task)")
          .doc(
              "Comma-separated local directories for disk chunks, used round-robin; a task's own"
                  + " local directories by default, which the framework cleans up after the job.")
          .since(V010)
          .build();

  public static final ConfigKey<Boolean> DFS_ENABLED =
      B.key("levee.sponge.dfs.enabled", bool())
          .defaultValue("true")
          .doc("Spill to a Hadoop FileSystem as the last resort, when local disks are full.")
          .since(V010)
          .build();

  public static final ConfigKey<String> DFS_DIR =
      B.key(
              "levee.sponge.dfs.dir",
              ValueTypes.simple(
                  "a path on fs.defaultFS or a full URI (not empty while levee.sponge.dfs.enabled"
                      + " is true)",
                  t -> t))
          .defaultValue("/tmp/levee-sponge")
          .doc("Directory for last-resort chunks: a path on fs.defaultFS or a full URI.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> WRITE_MAX_IN_FLIGHT =
      B.key("levee.sponge.write.max-in-flight-chunks", ints(1, MAX_IN_FLIGHT_CHUNKS))
          .defaultValue("2")
          .doc(
              "Non-local chunk writes a file may have queued or running before the writer blocks;"
                  + " each holds one chunk buffer.")
          .since(V010)
          .build();

  public static final ConfigKey<Boolean> READ_PREFETCH =
      B.key("levee.sponge.read.prefetch", bool())
          .defaultValue("true")
          .doc("Fetch a file's next non-local chunk while the current one is read.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> FREE_CLOSE_WAIT_MS =
      B.key("levee.sponge.free.close-wait-ms", ints(0, 600_000))
          .defaultValue("10000")
          .doc(
              "How long a finishing task waits for the frees of its deleted chunks still running in"
                  + " the background (a merge frees each drained run off its own thread). What is"
                  + " still pending then is left to the sponge servers, whose garbage collector"
                  + " reclaims a finished task's chunks, and counted in free.abandoned.")
          .since(V020)
          .build();

  // --- The node's sponge server (aux service or daemon).

  public static final ConfigKey<String> BIND_HOST =
      B.key("levee.sponge.server.bind-host", noWhitespace("a host name or IP address", false))
          .defaultValue("0.0.0.0")
          .doc("Address the sponge server listens on.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> PORT =
      B.key("levee.sponge.server.port", ints(0, 65535))
          .defaultValue("7788")
          .doc(
              "TCP port of the sponge server; 0 picks a free one (tests). Use the same port on"
                  + " every node.")
          .since(V010)
          .build();

  public static final ConfigKey<String> ADVERTISED_HOST =
      B.key("levee.sponge.server.advertised-host", hostName())
          .defaultValue("")
          .defaultDescription("levee.sponge.owner.host")
          .doc("The name other nodes reach this server by.")
          .since(V010)
          .build();

  public static final ConfigKey<String> RACK =
      B.key("levee.sponge.server.rack", rack())
          .defaultValue("")
          .defaultDescription("none (topology unknown)")
          .doc("Rack of this node, so remote spills prefer servers on the same rack.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> MAX_CONNECTIONS =
      B.key("levee.sponge.server.max-connections", ints(1, 10_000))
          .defaultValue("64")
          .doc(
              "Connections the server serves at once; one beyond them gets a BUSY reply and is closed.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> SOCKET_TIMEOUT_MS =
      B.key("levee.sponge.server.socket-timeout-ms", ints(100, Integer.MAX_VALUE))
          .defaultValue("60000")
          .doc("A connection idle, or stalled mid-frame, this long is closed.")
          .since(V010)
          .build();

  public static final ConfigKey<Long> GC_PERIOD_MS =
      B.key("levee.sponge.server.gc-period-ms", longs(10, 86_400_000L))
          .defaultValue("5000")
          .doc("How often the server looks for chunks of owners that died.")
          .since(V010)
          .build();

  public static final ConfigKey<Long> GC_PEER_GRACE_MS =
      B.key("levee.sponge.server.gc-peer-unreachable-grace-ms", longs(0, Long.MAX_VALUE))
          .defaultValue("60000")
          .doc(
              "How long a remote owner's server may stay unreachable before that owner's chunks"
                  + " here are reclaimed, counted from the owner's last lease renewal (clients"
                  + " renew every 10 s, so keep this a few times longer).")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> QUOTA_CHUNKS_PER_APP =
      B.key("levee.sponge.server.quota.chunks-per-application", ints(0, Integer.MAX_VALUE))
          .defaultValue("1024")
          .doc(
              "Most chunks one application may hold on one server for remote clients; 0 refuses"
                  + " all remote allocation.")
          .since(V010)
          .build();

  // --- Trust (issue 13): which owner nodes the garbage collector asks, and how long it waits.

  public static final ConfigKey<String> GC_OWNER_NODES =
      B.key(
              "levee.sponge.server.gc-owner-nodes",
              noWhitespace("comma-separated host:port of sponge servers", true))
          .defaultValue("")
          .defaultDescription("none: this node and, with ZooKeeper, its registered servers")
          .doc(
              "Comma-separated host:port of sponge servers whose remote owners this server may"
                  + " ask IS_ALIVE, besides itself and the servers registered in ZooKeeper. An"
                  + " owner naming any other node is never contacted: it counts as unreachable"
                  + " (kept for gc-peer-unreachable-grace-ms, then freed).")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> GC_PROBE_TIMEOUT_MS =
      B.key("levee.sponge.server.gc-probe-timeout-ms", ints(1, 600_000))
          .defaultValue("2000")
          .doc(
              "Connect and answer timeout of one IS_ALIVE probe of a GC round; a round probes"
                  + " every owner node in parallel and waits at most this long for all of them.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> GC_PROBE_THREADS =
      B.key("levee.sponge.server.gc-probe-threads", ints(1, 256))
          .defaultValue("16")
          .doc("Most IS_ALIVE probes one GC round runs at once.")
          .since(V020)
          .build();

  // --- The server under load (issue 13: slow peers, direct memory; area "harden").

  public static final ConfigKey<Integer> FRAME_TIMEOUT_MS =
      B.key("levee.sponge.server.frame-timeout-ms", ints(100, Integer.MAX_VALUE))
          .defaultValue("30000")
          .doc(
              "A whole exchange, from the first byte of a request to the last byte of its reply,"
                  + " must finish within this; a peer trickling bytes is cut here even though each"
                  + " byte came within the socket timeout.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> MAX_CONNECTIONS_PER_PEER =
      B.key("levee.sponge.server.max-connections-per-peer", ints(1, 10_000))
          .defaultValue("32")
          .doc(
              "Connections one peer address may hold at once; more get a BUSY reply. Every task of"
                  + " a node shares its address, so keep it above tasks per node times two; below"
                  + " max-connections, so that no one host can take every slot.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> HANDSHAKE_TIMEOUT_MS =
      B.key("levee.sponge.server.handshake-timeout-ms", ints(100, 600_000))
          .defaultValue("10000")
          .doc(
              "A new connection must finish its TLS handshake and its first request within this of"
                  + " being accepted, however it trickles its bytes, or it is closed: a peer that"
                  + " reconnects and trickles again holds a slot for this long, not for the socket"
                  + " or frame timeout.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> MAX_HANDSHAKES_PER_PEER =
      B.key("levee.sponge.server.max-handshakes-per-peer", ints(1, 10_000))
          .defaultValue("32")
          .doc(
              "Connections from one peer address that have not yet finished their first request;"
                  + " more get a BUSY reply. A slow or hostile address cannot hold more slots than"
                  + " this however often it reconnects; the default equals max-connections-per-peer"
                  + " because a node's tasks connect at once (8 refused a node reading over 8"
                  + " threads), so lower both on servers that face untrusted hosts.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> TRANSFER_BUFFERS =
      B.key("levee.sponge.server.transfer-buffers", ints(1, 10_000))
          .defaultValue("8")
          .doc(
              "Chunk-sized direct buffers the server reads chunks into for READ replies, shared by"
                  + " every connection: the server's direct memory is this times the chunk size,"
                  + " whatever the traffic. A READ that finds none free within the frame timeout"
                  + " gets a BUSY reply.")
          .since(V020)
          .build();

  // --- Authentication on the wire (issue 13, items 10 and 11; area "harden").

  public static final ConfigKey<Boolean> AUTH_REQUIRED =
      B.key("levee.sponge.server.auth.required", bool())
          .defaultValue("true")
          .doc(
              "Refuse every request but FREE_SPACE on a connection that has not proved an"
                  + " application's secret (its job's shuffle secret, which MapReduce hands only"
                  + " the mapreduce_shuffle aux service: run it as"
                  + " dev.levee.sponge.server.JobSecretRelayingShuffleHandler, which passes it on;"
                  + " or the secret derived from the cluster secret, which the node's server grants"
                  + " a task that proved its job's) or the cluster secret. On by default: a server"
                  + " then needs levee.sponge.auth.secret-file, and a NodeManager whose"
                  + " mapreduce_shuffle is another class refuses to start, naming both. Tasks"
                  + " follow their node's setting (its descriptor carries it). false runs"
                  + " unauthenticated, as Hadoop's shuffle never does, and logs a warning at start:"
                  + " only for single-tenant clusters and tests.")
          .since(V020)
          .build();

  public static final ConfigKey<String> AUTH_SECRET_FILE =
      B.key(
              "levee.sponge.auth.secret-file",
              ValueTypes.simple(
                  "an absolute local path, or empty",
                  t -> {
                    if (!t.isEmpty() && !java.nio.file.Path.of(t).isAbsolute()) {
                      throw new IllegalArgumentException("relative");
                    }
                    return t;
                  }))
          .defaultValue("")
          .defaultDescription("none")
          .doc(
              "File holding the cluster secret (at least 16 bytes, readable by the servers' user"
                  + " only): servers prove it to each other (the garbage collector's liveness"
                  + " probes) and to ZooKeeper, whose SpongeFiles znodes only they may then write;"
                  + " outside YARN, clients that can read it prove applications with secrets derived"
                  + " from it.")
          .since(V020)
          .build();

  public static final ConfigKey<Integer> AUTH_APPLICATION_CHECK_MS =
      B.key("levee.sponge.server.auth.application-check-ms", ints(100, 3_600_000))
          .defaultValue("30000")
          .doc(
              "How long a NodeManager's sponge believes the ResourceManager's word that an"
                  + " application still runs before asking again, when one of its tasks proves the"
                  + " application's cluster-derived secret on a node it never ran on: the longest a"
                  + " derived secret outlives its application there. An ended application is"
                  + " never asked about again.")
          .since(V020)
          .build();

  // --- TLS on the wire (issue 13, item 11; area "harden").

  public static final ConfigKey<Boolean> TLS_ENABLED =
      B.key(dev.levee.sponge.protocol.WireTls.ENABLED_KEY, bool())
          .defaultValue("false")
          .doc(
              "Encrypt sponge connections with TLS (1.3, or 1.2): capabilities, handshakes and"
                  + " chunk bytes no longer cross the network in clear. A server with it on"
                  + " refuses plaintext clients, and a client with it on refuses servers without"
                  + " it: set it the same on every NodeManager and in the jobs' configuration."
                  + " Servers need levee.sponge.wire.tls.keystore.path; clients check the"
                  + " server's certificate against levee.sponge.wire.tls.truststore.path.")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_KEYSTORE_PATH =
      B.key("levee.sponge.wire.tls.keystore.path", absolutePathOrEmpty())
          .defaultValue("")
          .defaultDescription("none")
          .doc(
              "Key store holding the server's private key and certificate (one key entry, whose"
                  + " password is the store's). Read when the server starts; a missing or"
                  + " unreadable store stops it. Needed by servers when TLS is on.")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_KEYSTORE_TYPE =
      B.key("levee.sponge.wire.tls.keystore.type", noWhitespace("a KeyStore type", false))
          .defaultValue("PKCS12")
          .doc("Type of the key store: PKCS12 or JKS.")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_KEYSTORE_PASSWORD =
      B.key("levee.sponge.wire.tls.keystore.password", ValueTypes.simple("a password", t -> t))
          .defaultValue("")
          .defaultDescription("none")
          .doc(
              "Password of the key store and its key. Read through Hadoop's credential providers"
                  + " (hadoop.security.credential.provider.path) when configured, else from this"
                  + " value in the site file, which must then be readable by the server's user"
                  + " only.")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_TRUSTSTORE_PATH =
      B.key("levee.sponge.wire.tls.truststore.path", absolutePathOrEmpty())
          .defaultValue("")
          .defaultDescription("the JDK's default trust store (cacerts)")
          .doc(
              "Certificates a client trusts (tasks, and servers probing each other): the cluster's"
                  + " CA, or every server's own certificate. A missing or unreadable store fails"
                  + " the client's creation (the server's start).")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_TRUSTSTORE_TYPE =
      B.key("levee.sponge.wire.tls.truststore.type", noWhitespace("a KeyStore type", false))
          .defaultValue("PKCS12")
          .doc("Type of the trust store: PKCS12 or JKS.")
          .since(V020)
          .build();

  public static final ConfigKey<String> TLS_TRUSTSTORE_PASSWORD =
      B.key("levee.sponge.wire.tls.truststore.password", ValueTypes.simple("a password", t -> t))
          .defaultValue("")
          .defaultDescription("none")
          .doc(
              "Password of the trust store, read like levee.sponge.wire.tls.keystore.password."
                  + " A PKCS12 store's certificates cannot be read without it; a JKS store's can"
                  + " (the password only checks its integrity). It guards no secret.")
          .since(V020)
          .build();

  public static final ConfigKey<Boolean> TLS_VERIFY_HOSTNAME =
      B.key("levee.sponge.wire.tls.verify-hostname", bool())
          .defaultValue("true")
          .doc(
              "A client checks that the server's certificate names the host it connects to (a"
                  + " DNS or IP subject alternative name matching the server's advertised host)."
                  + " Turn off only when every node shares one certificate that names none of"
                  + " them: any holder of a trusted key could then pose as any server.")
          .since(V020)
          .build();

  // --- The tracker (ZooKeeper).

  public static final ConfigKey<String> ZK_QUORUM =
      B.key(
              "levee.sponge.zookeeper.quorum",
              noWhitespace("a ZooKeeper connect string (host:port,host:port[/chroot])", true))
          .defaultValue("")
          .defaultDescription("none: no remote memory")
          .doc(
              "ZooKeeper connect string. Servers register there and elect the memory tracker;"
                  + " tasks read the tracker's list of servers with free memory. Empty runs each"
                  + " node alone.")
          .since(V010)
          .build();

  public static final ConfigKey<String> ZK_ROOT =
      B.key("levee.sponge.zookeeper.root", zooKeeperPath())
          .defaultValue("/levee/sponge")
          .doc("ZooKeeper path under which SpongeFiles keep their nodes.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> ZK_SESSION_TIMEOUT_MS =
      B.key("levee.sponge.zookeeper.session-timeout-ms", ints(1000, Integer.MAX_VALUE))
          .defaultValue("30000")
          .doc("ZooKeeper session timeout of servers and tasks.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> ZK_CONNECT_TIMEOUT_MS =
      B.key("levee.sponge.zookeeper.connect-timeout-ms", ints(100, 600_000))
          .defaultValue("2000")
          .doc(
              "How long a task waits for ZooKeeper before it gives up remote memory for its whole"
                  + " life (local memory and disk still serve): one bounded wait per task, never"
                  + " one per file.")
          .since(V020)
          .build();

  public static final ConfigKey<Long> TRACKER_POLL_MS =
      B.key("levee.sponge.tracker.poll-period-ms", longs(10, 3_600_000L))
          .defaultValue("1000")
          .doc("How often the elected tracker asks every server for its free memory.")
          .since(V010)
          .build();

  // --- Clients of sponge servers (tasks, the tracker, peers).

  public static final ConfigKey<Integer> CLIENT_CONNECT_TIMEOUT_MS =
      B.key("levee.sponge.client.connect-timeout-ms", ints(1, Integer.MAX_VALUE))
          .defaultValue("5000")
          .doc("Connect timeout to a sponge server.")
          .since(V010)
          .build();

  public static final ConfigKey<Integer> CLIENT_READ_TIMEOUT_MS =
      B.key("levee.sponge.client.read-timeout-ms", ints(1, Integer.MAX_VALUE))
          .defaultValue("30000")
          .doc("How long a client waits for a sponge server's reply.")
          .since(V010)
          .build();

  // --- The reduce-side plugin.

  /** What a reduce does when its node has no usable sponge. */
  public enum Fallback {
    /** Spill to local disk as stock Hadoop does, say so once in the log, count it. */
    STOCK,
    /** Fail the attempt, naming why. */
    FAIL
  }

  public static final ConfigKey<Fallback> SHUFFLE_FALLBACK =
      B.key("levee.sponge.shuffle.fallback", ValueTypes.enumOf(Fallback.class))
          .defaultValue("stock")
          .doc(
              "What a reduce does when its node has no usable sponge: stock spills to local disk as"
                  + " stock Hadoop does, logs it once and counts shuffle.fallbacks; fail fails the"
                  + " attempt with the reason, for clusters that must not run without SpongeFiles"
                  + " unnoticed.")
          .since(V020)
          .build();

  public static final ConfigKey<Boolean> SHUFFLE_REQUIRE_SERVER =
      B.key("levee.sponge.shuffle.require-server", bool())
          .defaultValue("true")
          .doc(
              "Use SpongeFiles only when the node's sponge server answers. The server reclaims the"
                  + " chunks of tasks that die; turn this off only for tools and tests that own the"
                  + " pool.")
          .since(V010)
          .build();

  public static final ConfigKey<Double> SHUFFLE_MERGE_DIRECT_MEMORY_FRACTION =
      B.key("levee.sponge.shuffle.merge.direct-memory.fraction", decimal(0, false, 1, true))
          .defaultValue("0.5")
          .doc(
              "Share of the reduce JVM's direct memory (-XX:MaxDirectMemorySize, by default -Xmx)"
                  + " the final merge may fill with chunk buffers of runs outside the local sponge;"
                  + " more runs than fit are first merged in intermediate rounds.")
          .since(V010)
          .build();

  // --- Map-side spills (SpongeMapOutputCollector).

  public static final ConfigKey<Fallback> MAP_FALLBACK =
      B.key("levee.sponge.map.fallback", ValueTypes.enumOf(Fallback.class))
          .defaultValue("stock")
          .doc(
              "What a map does when its node has no usable sponge: stock runs Hadoop's own map"
                  + " output buffer (spills to local disk), logs it once and counts map.fallbacks;"
                  + " fail fails the attempt with the reason.")
          .since(V020)
          .build();

  public static final ConfigKey<Double> MAP_MERGE_DIRECT_MEMORY_FRACTION =
      B.key("levee.sponge.map.merge.direct-memory.fraction", decimal(0, false, 1, true))
          .defaultValue("0.25")
          .doc(
              "Share of the map JVM's direct memory (-XX:MaxDirectMemorySize, by default -Xmx)"
                  + " the merge into file.out may fill with chunk buffers of spilled runs outside"
                  + " the local sponge; more runs than fit are first merged in intermediate rounds.")
          .since(V020)
          .build();

  /** The registry. Keys under levee.sponge.node. are written by the aux service, not by users. */
  public static final ConfigRegistry REGISTRY = B.family("levee\\.sponge\\.node\\..*").build();

  /** {@code conf} as the registry reads it. */
  public static ConfigSource source(Configuration conf) {
    return ConfigSource.ofEntries(conf::get, conf);
  }

  /**
   * Checks every {@code levee.sponge.*} value in {@code conf} (a bad one throws, naming key, value
   * and what is allowed) and warns, once per key and JVM, about keys no one reads: a typo would
   * otherwise silently leave the default in force.
   */
  public static void validate(Configuration conf) {
    REGISTRY.validate(source(conf), LOG::warn);
  }

  private static ValueType<String> absolutePath() {
    return ValueTypes.simple(
        "an absolute local path",
        t -> {
          if (!java.nio.file.Path.of(t).isAbsolute()) {
            throw new IllegalArgumentException("relative");
          }
          return t;
        });
  }

  private static ValueType<String> absolutePathOrEmpty() {
    return ValueTypes.simple(
        "an absolute local path, or empty",
        t -> {
          if (!t.isEmpty() && !java.nio.file.Path.of(t).isAbsolute()) {
            throw new IllegalArgumentException("relative");
          }
          return t;
        });
  }

  private static ValueType<String> absolutePathList() {
    return ValueTypes.simple(
        "comma-separated absolute local directories (file:// allowed)",
        t -> {
          for (String part : t.split(",")) {
            String p = part.trim();
            p = p.startsWith("file://") ? p.substring("file://".length()) : p;
            if (!p.isEmpty() && !java.nio.file.Path.of(p).isAbsolute()) {
              throw new IllegalArgumentException("relative: " + part);
            }
          }
          return t;
        });
  }

  private static ValueType<String> hostName() {
    return ValueTypes.simple(
        "a host name of at most "
            + ChunkOwner.MAX_HOST_BYTES
            + " UTF-8 bytes, or empty for the default",
        t -> {
          if (t.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > ChunkOwner.MAX_HOST_BYTES
              || t.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("not a host name");
          }
          return t;
        });
  }

  private static ValueType<String> noWhitespace(String what, boolean emptyAllowed) {
    return ValueTypes.simple(
        what + (emptyAllowed ? ", or empty" : ""),
        t -> {
          if ((t.isEmpty() && !emptyAllowed)
              || t.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("not " + what);
          }
          return t;
        });
  }

  private static ValueType<String> rack() {
    return ValueTypes.simple(
        "a rack name without whitespace, not '-', or empty",
        t -> {
          if (t.equals("-")
              || t.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("not a rack name");
          }
          return t;
        });
  }

  private static ValueType<String> zooKeeperPath() {
    return ValueTypes.simple(
        "an absolute ZooKeeper path not ending in '/'",
        t -> {
          if (!t.startsWith("/") || (t.length() > 1 && t.endsWith("/"))) {
            throw new IllegalArgumentException("not a ZooKeeper path");
          }
          return t;
        });
  }
}
