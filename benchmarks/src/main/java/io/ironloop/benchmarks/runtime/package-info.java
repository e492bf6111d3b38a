/**
 * The runtime's end-to-end benchmarks ({@code ironloop bench preempt}: {@link io.ironloop.benchmarks.runtime.PreemptBench},
 * {@code ironloop bench overhead}: {@link io.ironloop.benchmarks.runtime.OverheadBench}) and their rank programs: each
 * runs jobs through the launcher, keeps a job's output aside and shows it only when the job did not do what the bench
 * needed; progress goes to standard error.
 */
package io.ironloop.benchmarks.runtime;
