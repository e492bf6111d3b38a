/** The heterogeneous-device benchmark ({@code ironloop bench devices}): the paper's Table 5 split per example. */
package io.ironloop.benchmarks.device;
