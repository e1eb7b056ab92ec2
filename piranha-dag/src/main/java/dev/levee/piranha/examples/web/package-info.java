/**
 * The three queries of the Piranha paper's evaluation (K. Elmeleegy, "Piranha: Optimizing Short
 * Jobs in Hadoop", PVLDB 6(11), 2013) over a crawl of web pages: TopKDomains, TopKWords and
 * NonSpamTopKAnchor, each as the chain of stock MapReduce jobs a user writes today and as a Pig
 * Latin script. {@code PiranhaRunner} runs a chain unchanged through {@code MrChain.of}; the bench
 * and the container tier run them that way and compare with the chain on the same data.
 */
package dev.levee.piranha.examples.web;
