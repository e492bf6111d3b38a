/**
 * Examples on the fault-tolerant loop skeleton ({@link io.ironloop.runtime.skeleton.Skeleton}): the 2-D heat
 * example ported from its hand-written block version, {@link io.ironloop.examples.skeleton.HeatSkeleton}.
 */
package io.ironloop.examples.skeleton;
