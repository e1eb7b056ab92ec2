/**
 * How clients learn which sponge servers have free memory: the memory tracker's list, published in
 * ZooKeeper, read behind a breaker that gives up remote memory after one bounded wait.
 */
package dev.levee.sponge.discovery;
