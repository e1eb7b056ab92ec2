/**
 * The client side of the sponge protocol: how a SpongeFile stores, reads and frees chunks in other
 * nodes' sponges ({@link dev.levee.sponge.client.RemoteMemory}), one pipelined connection per
 * server.
 */
package dev.levee.sponge.client;
