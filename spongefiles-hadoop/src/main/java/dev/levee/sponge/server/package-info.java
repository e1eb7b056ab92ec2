/**
 * The per-node sponge server ({@link dev.levee.sponge.server.SpongeService}: pool, TCP server,
 * garbage collector, ZooKeeper registration and memory-tracker candidacy), run inside a NodeManager
 * ({@link dev.levee.sponge.server.SpongeAuxService}) or alone ({@link
 * dev.levee.sponge.server.SpongeServerDaemon}). Keys and defaults: {@link
 * dev.levee.sponge.server.SpongeServerConfig}.
 */
package dev.levee.sponge.server;
