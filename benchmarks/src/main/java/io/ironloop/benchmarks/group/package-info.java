/**
 * {@code ironloop bench group}: the process group measured with real rank JVMs on loopback ({@link
 * io.ironloop.benchmarks.group.GroupBench} drives, {@link io.ironloop.benchmarks.group.BenchRank} is a rank).
 */
package io.ironloop.benchmarks.group;
