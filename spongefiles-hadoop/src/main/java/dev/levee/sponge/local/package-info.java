/**
 * The node-local memory sponge: a pool of fixed-size chunks in memory-mapped tmpfs files shared by
 * every task on the node and the node's sponge server, with per-chunk owner metadata under a
 * crash-tolerant cross-process lock.
 */
package dev.levee.sponge.local;
