/**
 * SpongeFiles: spill files made of fixed-size chunks that go to the nearest place with room — this
 * node's shared memory sponge, other nodes' sponges, local disk, then a Hadoop FileSystem.
 *
 * <p>Entry point: {@link dev.levee.sponge.SpongeFileSystem} (one per process), configured by {@link
 * dev.levee.sponge.SpongeConfig} from the {@code levee.sponge.*} keys in {@link
 * dev.levee.sponge.SpongeConfigKeys}; it creates {@link dev.levee.sponge.SpongeFile}s and keeps
 * {@link dev.levee.sponge.SpongeMetrics}. Sub-packages: {@code local} (the node's shared-memory
 * pool), {@code tier} (one file's chunks in each tier), {@code remote} (the contract with the
 * sponge servers), {@code server}.
 */
package dev.levee.sponge;
