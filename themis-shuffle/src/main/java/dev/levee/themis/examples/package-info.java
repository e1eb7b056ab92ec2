/**
 * Jobs of the evaluation in "ThemisMR: An I/O-Efficient MapReduce" (A. Rasmussen, V. T. Lam, M.
 * Conley, G. Porter, R. Kapoor and A. Vahdat, ACM SoCC 2012) written as stock MapReduce jobs, which
 * Themis runs unchanged: the bench and the integration tests share them.
 */
package dev.levee.themis.examples;
