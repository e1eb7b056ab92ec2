package dev.levee.sponge.remote.net;

import dev.levee.sponge.remote.SpongeServerAddress;

/** A sponge server with the free chunk count the tracker last saw. */
public record ServerListEntry(SpongeServerAddress address, int freeChunks, int totalChunks) {}
