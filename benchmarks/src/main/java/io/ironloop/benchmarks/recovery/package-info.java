/**
 * {@code ironloop bench recovery}: partner copies against raw loopback TCP between the same rank JVMs, the
 * blocking time of a block loop's snapshot against memcpy, the memory factor measured against the formula, and
 * online recovery after {@code kill -9} of one rank, with and without a spare. {@link
 * io.ironloop.benchmarks.recovery.RecoveryBench} drives; {@link io.ironloop.benchmarks.recovery.RecoveryRank} is a rank.
 */
package io.ironloop.benchmarks.recovery;
