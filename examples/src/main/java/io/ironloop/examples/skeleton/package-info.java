/**
 * Examples on the fault-tolerant loop skeleton ({@link io.ironloop.runtime.skeleton.Skeleton}): the 2-D heat
 * example ported from its hand-written block version, {@link io.ironloop.examples.skeleton.HeatSkeleton}; the runner
 * of the skeleton rank programs ({@link io.ironloop.examples.skeleton.SkeletonRankMain} over a {@link
 * io.ironloop.examples.skeleton.SkeletonApp}); and the list of examples with a hand-written twin, {@link
 * io.ironloop.examples.skeleton.SkeletonTwin}. The circulation and Swing examples live in {@code
 * io.ironloop.examples.circulation} and {@code io.ironloop.examples.swing}.
 */
package io.ironloop.examples.skeleton;
