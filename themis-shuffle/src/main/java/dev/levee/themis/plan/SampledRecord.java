package dev.levee.themis.plan;

/**
 * One map output record phase 0 kept: its serialized key, its size as the map would write it
 * (framed: both lengths, key, value), the key's hashCode, and the partition the job's own
 * partitioner gave it at the job's own reducer count.
 */
public record SampledRecord(byte[] key, int framedBytes, int hash, int userPartition) {}
