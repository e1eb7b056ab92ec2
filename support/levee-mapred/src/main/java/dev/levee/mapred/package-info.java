/**
 * MapReduce plumbing shared by the Hadoop plugins (SpongeFiles, Themis, Piranha): what each needs
 * from Hadoop's task internals in the same form. Each plugin jar carries this package relocated
 * into its own.
 */
package dev.levee.mapred;
