package dev.levee.sponge.discovery;

import dev.levee.sponge.protocol.SpongeServerAddress;

/** A sponge server with the free chunk count the tracker last saw. */
public record ServerListEntry(SpongeServerAddress address, int freeChunks, int totalChunks) {}
