/**
 * End-to-end benchmarks that run jobs through the launcher ({@code ironloop bench preempt}, {@code ironloop
 * bench overhead}): each job's output is kept aside and shown only when the job did not do what the bench
 * needed; progress goes to standard error.
 */
package io.ironloop.cli.bench;
