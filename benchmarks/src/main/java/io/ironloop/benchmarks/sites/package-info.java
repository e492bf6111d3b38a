/** {@code ironloop bench sites}: site-checkpoint replication against raw TCP, site-failure detection and recovery times. */
package io.ironloop.benchmarks.sites;
