/** End-to-end benchmarks reporting ratios against references measured in the same run. */
package io.ironloop.benchmarks;
