/**
 * Which sponge server each remote chunk goes to. {@link dev.levee.sponge.placement.PlacementPolicy}
 * has two implementations: the paper's free list in the tracker's order, and the batch sampling of
 * Bindschaedler's Scatter architecture ("An Architecture for Load Balance in Computer Cluster
 * Applications", EPFL thesis, 2020, section 2.1.4), which keeps a client's stores spread over the
 * least-loaded of a few randomly sampled servers so that uncoordinated tasks reading the same stale
 * list do not all land on the same few servers.
 */
package dev.levee.sponge.placement;
