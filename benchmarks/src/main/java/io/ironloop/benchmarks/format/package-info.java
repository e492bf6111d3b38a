/**
 * JMH benchmarks of the checkpoint format: encode and decode throughput per codec and content
 * ({@link io.ironloop.benchmarks.format.CodecBenchmark}), and file writes and reads against raw
 * {@code FileChannel} transfers of the same size measured in the same run
 * ({@link io.ironloop.benchmarks.format.FileBenchmark}). How to run them: {@code benchmarks/README.md}.
 */
package io.ironloop.benchmarks.format;
