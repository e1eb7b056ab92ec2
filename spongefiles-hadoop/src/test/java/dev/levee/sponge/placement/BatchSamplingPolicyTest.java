package dev.levee.sponge.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.config.ConfigException;
import dev.levee.sponge.SpongeMetrics;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.tier.RemoteMemoryTier;
import dev.levee.sponge.tier.StoredChunk;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class BatchSamplingPolicyTest {
  private static final Executor DIRECT = Runnable::run;

  private static ByteBuffer chunk() {
    return ByteBuffer.allocate(16);
  }

  @Test
  void theFirstChoiceIsTheLeastLoadedOfTheSampleAndEveryServerGetsSampled() {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      servers.add(s.add("s" + i, i < 5 ? 2 : 50)); // s0..s4 nearly full, s5..s9 roomy
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(1));
    FilePlacement file = policy.newFile(s.hint());
    Map<SpongeServerAddress, Integer> firsts = new HashMap<>();
    int trials = 4000;
    int lowFirst = 0;
    for (int i = 0; i < trials; i++) {
      List<SpongeServerAddress> order = file.order(Set.of());
      assertEquals(10, order.size(), "the sample, then every other candidate");
      int first = servers.indexOf(order.get(0));
      int second = servers.indexOf(order.get(1));
      assertTrue(
          first >= 5 || second < 5, "a nearly full server never beats a roomy one: " + order);
      lowFirst += first < 5 ? 1 : 0;
      firsts.merge(order.get(0), 1, Integer::sum);
    }
    // Both sampled servers nearly full: P = C(5,2)/C(10,2) = 2/9 (binomial sd ~0.7%).
    assertTrue(Math.abs(lowFirst / (double) trials - 2 / 9.0) < 0.03, "low first " + lowFirst);
    // Among the roomy ones no server is favoured: each wins 7/45 of the pairs.
    for (int i = 5; i < 10; i++) {
      double share = firsts.get(servers.get(i)) / (double) trials;
      assertTrue(Math.abs(share - 7 / 45.0) < 0.03, servers.get(i) + " first in " + share);
    }
  }

  @Test
  void ownStoresAndStoresInFlightCountAsLoadSoOneClientSpreadsItsWindow() throws Exception {
    CountingServers s = new CountingServers();
    for (int i = 0; i < 5; i++) {
      s.add("s" + i, 100);
    }
    // K = N: the whole list is the sample, so each store goes to the least loaded of all.
    BatchSamplingPolicy policy = new BatchSamplingPolicy(5, 2, new Random(2));
    RemoteMemoryTier tier =
        new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    s.hold = true;
    List<CompletableFuture<Optional<StoredChunk>>> sent = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sent.add(tier.storeAsync(chunk(), DIRECT));
    }
    assertEquals(5, policy.inFlight());
    while (s.answerOne()) {}
    Set<SpongeServerAddress> servers = new HashSet<>();
    for (var f : sent) {
      servers.add(((StoredChunk.Remote) f.get().orElseThrow()).handle().server());
    }
    assertEquals(5, servers.size(), "five stores in flight went to five different servers");
    for (int i = 0; i < 10; i++) {
      tier.store(chunk());
    }
    assertEquals(List.of(3, 3, 3, 3, 3), new ArrayList<>(s.used.values()));
  }

  @Test
  void twoCopiesAreNeverOnTheSameServer() throws Exception {
    CountingServers s = new CountingServers();
    for (int i = 0; i < 4; i++) {
      s.add("s" + i, 200);
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(3));
    RemoteMemoryTier tier =
        new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 2);
    for (int i = 0; i < 100; i++) {
      StoredChunk.Remote c = (StoredChunk.Remote) tier.store(chunk()).orElseThrow();
      List<RemoteChunk> copies = c.copies();
      assertEquals(2, copies.size());
      assertNotEquals(copies.get(0).server(), copies.get(1).server(), "chunk " + i);
      StoredChunk.Remote a = (StoredChunk.Remote) tier.storeAsync(chunk(), DIRECT).get().get();
      assertNotEquals(a.copies().get(0).server(), a.copies().get(1).server(), "async " + i);
    }
  }

  @Test
  void theWindowHoldsAtMostPhiKStoresInFlight() throws Exception {
    CountingServers s = new CountingServers();
    for (int i = 0; i < 8; i++) {
      s.add("s" + i, 100);
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 1.5, new Random(4));
    assertEquals(3, policy.window());
    // Two files of one client share its window.
    RemoteMemoryTier a = new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    RemoteMemoryTier b = new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    s.hold = true;
    AtomicInteger issued = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; i < 6; i++) {
                (i % 2 == 0 ? a : b).storeAsync(chunk(), DIRECT);
                issued.incrementAndGet();
              }
            });
    writer.start();
    Await.until("three stores in flight", () -> issued.get() == 3 && policy.inFlight() == 3);
    // The writer either parks on the window or (wrongly) sends the rest and ends.
    Await.until(
        "the writer parked or done",
        () ->
            EnumSet.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.TERMINATED)
                .contains(writer.getState()));
    assertEquals(3, issued.get(), "the fourth store waits for the window");
    assertEquals(3, s.held.size());
    for (int answered = 1; answered <= 3; answered++) {
      assertTrue(s.answerOne());
      int want = 3 + answered;
      Await.until("one more store issued", () -> issued.get() == want);
      assertTrue(policy.inFlight() <= 3);
    }
    writer.join();
    while (s.answerOne()) {}
    assertEquals(0, policy.inFlight());
    assertEquals(6, s.used.values().stream().mapToInt(Integer::intValue).sum());
  }

  @Test
  void aFullSampleFallsBackToTheRestOfTheListThenToTheNextTier() throws Exception {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      servers.add(s.add("s" + i, i < 8 ? 0 : 1)); // only s8 and s9 have room...
    }
    List<ServerListEntry> stale = new ArrayList<>();
    for (SpongeServerAddress a : servers) {
      stale.add(new ServerListEntry(a, 5, 5)); // ...but a stale list says all have five
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(3, 2, new Random(5));
    RemoteMemoryTier tier = new RemoteMemoryTier(s, policy.newFile(stale), new SpongeMetrics(), 1);
    Set<SpongeServerAddress> got = new HashSet<>();
    got.add(((StoredChunk.Remote) tier.store(chunk()).orElseThrow()).handle().server());
    got.add(
        ((StoredChunk.Remote) tier.storeAsync(chunk(), DIRECT).get().orElseThrow())
            .handle()
            .server());
    assertEquals(Set.of(servers.get(8), servers.get(9)), got);
    // Another file of the client reading the same stale list ranks the servers found full last.
    Set<SpongeServerAddress> foundFull = new HashSet<>(s.asked);
    foundFull.removeAll(got);
    assertFalse(foundFull.isEmpty());
    List<SpongeServerAddress> next = policy.newFile(stale).order(Set.of());
    assertEquals(10, next.size());
    assertEquals(foundFull, Set.copyOf(next.subList(10 - foundFull.size(), 10)), next.toString());

    assertTrue(tier.store(chunk()).isEmpty(), "no server has room: the next tier's turn");
    for (SpongeServerAddress a : servers) {
      assertTrue(
          s.asked.stream().filter(a::equals).count() <= 2,
          "a server that said full is not asked again by the file: " + s.asked);
    }
    // A newer list (other counts) is believed again.
    List<ServerListEntry> fresh = new ArrayList<>();
    for (SpongeServerAddress a : servers) {
      fresh.add(new ServerListEntry(a, 3, 5));
    }
    FilePlacement after = policy.newFile(fresh);
    assertEquals(10, after.order(Set.of()).size());
  }

  @Test
  void aServerThatFailedIsTriedLastByLaterFiles() throws Exception {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      servers.add(s.add("s" + i, 100));
    }
    SpongeServerAddress bad = servers.get(2);
    s.lost.add(bad);
    BatchSamplingPolicy policy = new BatchSamplingPolicy(6, 2, new Random(6));
    RemoteMemoryTier tier =
        new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    for (int i = 0; i < 12; i++) {
      assertNotEquals(
          bad, ((StoredChunk.Remote) tier.store(chunk()).orElseThrow()).handle().server());
    }
    assertEquals(1, s.asked.stream().filter(bad::equals).count(), "asked once by the file");
    for (int i = 0; i < 20; i++) {
      List<SpongeServerAddress> order = policy.newFile(s.hint()).order(Set.of());
      assertEquals(bad, order.get(order.size() - 1), "failed servers come last");
    }
    // A read failure counts too.
    SpongeServerAddress flaky = servers.get(4);
    s.lost.add(flaky);
    RemoteMemoryTier reader =
        new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    StoredChunk onFlaky = new StoredChunk.Remote(List.of(new CountingServers.Chunk(flaky, 16)));
    assertThrows(java.io.IOException.class, () -> reader.read(onFlaky, ByteBuffer.allocate(16)));
    List<SpongeServerAddress> order = policy.newFile(s.hint()).order(Set.of());
    assertEquals(Set.of(bad, flaky), Set.copyOf(order.subList(4, 6)));
  }

  /** A store to {@code server} whose reply reports {@code queue} and {@code free}. */
  private static void reply(FilePlacement file, SpongeServerAddress server, int queue, int free)
      throws Exception {
    file.begin(server);
    file.end(server, FilePlacement.Outcome.STORED, new ServerLoad(queue, free));
  }

  @Test
  void aServerThatReportedAShortQueueGetsTheNextStoreAndOneThatReportedALongOneDoesNot()
      throws Exception {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      servers.add(s.add("s" + i, 100));
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(7));
    FilePlacement file = policy.newFile(s.hint());
    SpongeServerAddress shortQueue = servers.get(10);
    SpongeServerAddress longQueue = servers.get(20);
    reply(file, shortQueue, 1, 90);
    reply(file, longQueue, 9, 90);
    // Unreported servers count as the mean report (5): the short queue wins every time, however
    // the sample falls; the long one never comes first.
    for (int i = 0; i < 500; i++) {
      assertEquals(shortQueue, file.first(Set.of()));
      List<SpongeServerAddress> order = file.order(Set.of());
      assertEquals(shortQueue, order.get(0));
      assertEquals(100, order.size(), "every candidate, once");
      assertNotEquals(longQueue, file.first(Set.of(shortQueue)));
    }
    // The client's own stores since the report lengthen the queue it reckons: after four more
    // (1 + 4 = 5, as loaded as an unreported server that has none of its stores) it moves on.
    for (int i = 0; i < 4; i++) {
      file.begin(shortQueue);
    }
    assertNotEquals(shortQueue, file.first(Set.of()));
    for (int i = 0; i < 4; i++) {
      file.end(shortQueue, FilePlacement.Outcome.STORED);
    }

    // A report is forgotten once the window (4) holds newer ones: the queue has moved on since.
    BatchSamplingPolicy other = new BatchSamplingPolicy(2, 2, new Random(11));
    FilePlacement next = other.newFile(s.hint());
    reply(next, servers.get(60), 8, 90);
    reply(next, shortQueue, 0, 90);
    assertEquals(shortQueue, next.first(Set.of()), "remembered");
    for (int i = 0; i < 4; i++) {
      reply(next, servers.get(50 + i), 8, 90);
    }
    Map<SpongeServerAddress, Integer> firsts = new HashMap<>();
    for (int i = 0; i < 2000; i++) {
      firsts.merge(next.first(Set.of()), 1, Integer::sum);
    }
    assertTrue(firsts.getOrDefault(shortQueue, 0) < 100, "forgotten: " + firsts.get(shortQueue));
  }

  @Test
  void theLoadInAStoreReplyReachesThePolicyThroughTheTier() throws Exception {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      SpongeServerAddress a = s.add("s" + i, 1000);
      servers.add(a);
      s.reportedQueue.put(a, 6);
    }
    SpongeServerAddress idle = servers.get(13);
    s.reportedQueue.put(idle, 0);
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(12));
    RemoteMemoryTier tier =
        new RemoteMemoryTier(s, policy.newFile(s.hint()), new SpongeMetrics(), 1);
    int stores = 0;
    while (!s.asked.contains(idle)) {
      tier.store(chunk());
      assertTrue(++stores < 500, "the idle server was never sampled");
    }
    // From its first reply on, the server that reports an empty queue takes every store: each of
    // its replies says so again, and every other server said 6.
    for (int i = 0; i < 20; i++) {
      tier.storeAsync(chunk(), DIRECT).get();
      tier.store(chunk());
    }
    assertEquals(
        List.of(idle),
        s.asked.subList(s.asked.size() - 40, s.asked.size()).stream().distinct().toList());
  }

  @Test
  void aServerThatReportedNoFreeChunkIsNotTriedBeforeTheRestUntilANewerList() throws Exception {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      servers.add(s.add("s" + i, 50));
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(8));
    FilePlacement file = policy.newFile(s.hint());
    SpongeServerAddress filled = servers.get(3);
    reply(file, servers.get(0), 8, 40);
    reply(file, filled, 0, 0); // the shortest queue, but no room left
    for (int i = 0; i < 50; i++) {
      List<SpongeServerAddress> order = file.order(Set.of());
      assertEquals(filled, order.get(5), "ranked last: " + order);
      assertNotEquals(filled, file.first(Set.of()));
    }
    List<ServerListEntry> newer = new ArrayList<>();
    for (SpongeServerAddress a : servers) {
      newer.add(new ServerListEntry(a, 20, 50));
    }
    FilePlacement later = policy.newFile(newer);
    for (int i = 0; i < 50; i++) {
      assertEquals(filled, later.first(Set.of()), "a newer list is believed again");
    }
  }

  @Test
  void theFirstChoiceIsUniformOverTheEligibleServersOfALongList() {
    CountingServers s = new CountingServers();
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      servers.add(s.add("s" + i, 100));
    }
    List<ServerListEntry> hint = new ArrayList<>();
    for (SpongeServerAddress a : servers) {
      hint.add(new ServerListEntry(a, 100, 100));
    }
    BatchSamplingPolicy policy = new BatchSamplingPolicy(2, 2, new Random(9));
    FilePlacement file = policy.newFile(hint);
    // Sixty servers excluded: the draw by rejection must still treat the other forty alike.
    Set<SpongeServerAddress> exclude = new HashSet<>(servers.subList(0, 60));
    Map<SpongeServerAddress, Integer> firsts = new HashMap<>();
    int trials = 20_000;
    for (int i = 0; i < trials; i++) {
      SpongeServerAddress f = file.first(exclude);
      assertFalse(exclude.contains(f), f + " is excluded");
      firsts.merge(f, 1, Integer::sum);
    }
    assertEquals(40, firsts.size(), "every eligible server comes first sometimes");
    for (var e : firsts.entrySet()) {
      // Each should win 1/40 = 2.5 % (binomial sd ~0.11 %).
      double share = e.getValue() / (double) trials;
      assertTrue(Math.abs(share - 0.025) < 0.006, e.getKey() + " first in " + share);
    }
  }

  @Test
  void theFreeListsFirstIsTheHeadOfItsOrder() {
    Random r = new Random(10);
    List<SpongeServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      servers.add(new SpongeServerAddress("s" + i, 7000, null));
    }
    FilePlacement file = FreeListPolicy.forServers(servers);
    for (int step = 0; step < 400; step++) {
      Set<SpongeServerAddress> exclude = new HashSet<>();
      for (int i = r.nextInt(3); i > 0; i--) {
        exclude.add(servers.get(r.nextInt(servers.size())));
      }
      List<SpongeServerAddress> order = file.order(exclude);
      SpongeServerAddress first = file.first(exclude);
      assertEquals(order.isEmpty() ? null : order.get(0), first, "step " + step);
      if (first != null) {
        FilePlacement.Outcome[] outcomes = FilePlacement.Outcome.values();
        // Mostly stored, as in a real file; sometimes full or failed, which uses servers up.
        file.end(first, r.nextInt(4) == 0 ? outcomes[1 + r.nextInt(2)] : outcomes[0]);
      }
    }
  }

  @Test
  void theKeysChooseThePolicyAndBadValuesNameTheKey() {
    Configuration conf = new Configuration(false);
    PlacementPolicy byDefault = Placements.fromConf(conf);
    assertEquals(BatchSamplingPolicy.NAME, byDefault.name());
    assertEquals(5, ((BatchSamplingPolicy) byDefault).sampleSize());
    assertEquals(10, ((BatchSamplingPolicy) byDefault).window());
    conf.set(SpongeConf.PLACEMENT_SAMPLE_SIZE.name(), "3");
    conf.set(SpongeConf.PLACEMENT_WINDOW_FACTOR.name(), "1.5");
    assertEquals(5, ((BatchSamplingPolicy) Placements.fromConf(conf)).window());
    conf.set(SpongeConf.PLACEMENT_POLICY.name(), "FREE-LIST");
    assertEquals(FreeListPolicy.NAME, Placements.fromConf(conf).name());
    conf.set(SpongeConf.PLACEMENT_POLICY.name(), "random");
    ConfigException e = assertThrows(ConfigException.class, () -> Placements.fromConf(conf));
    assertTrue(e.getMessage().contains(SpongeConf.PLACEMENT_POLICY.name()), e.getMessage());
    assertTrue(e.getMessage().contains("batch-sampling"), e.getMessage());
    conf.set(SpongeConf.PLACEMENT_POLICY.name(), "batch-sampling");
    conf.set(SpongeConf.PLACEMENT_WINDOW_FACTOR.name(), "0.5");
    e = assertThrows(ConfigException.class, () -> Placements.fromConf(conf));
    assertTrue(e.getMessage().contains(SpongeConf.PLACEMENT_WINDOW_FACTOR.name()), e.getMessage());
  }
}
