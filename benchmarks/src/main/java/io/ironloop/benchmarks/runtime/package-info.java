/**
 * Rank programs of the runtime's end-to-end benchmarks ({@code ironloop bench preempt}, {@code ironloop bench
 * overhead}); the command line starts them through the launcher.
 */
package io.ironloop.benchmarks.runtime;
