/**
 * JMH benchmarks of the storage levels' kernels: XOR and Reed–Solomon encoding and decoding on one core
 * against {@code System.arraycopy} of the same bytes ({@link io.ironloop.benchmarks.level.ErasureBenchmark}).
 * How to run them: {@code benchmarks/README.md}.
 */
package io.ironloop.benchmarks.level;
