/** The loop skeleton's overhead, checkpoint size and line counts against the hand-written heat example. */
package io.ironloop.benchmarks.skeleton;
