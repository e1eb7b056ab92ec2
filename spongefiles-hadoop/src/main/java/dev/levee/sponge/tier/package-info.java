/**
 * One SpongeFile's chunks in each storage tier (local sponge, remote sponges, local disk, DFS), and
 * the record of where each chunk went.
 */
package dev.levee.sponge.tier;
