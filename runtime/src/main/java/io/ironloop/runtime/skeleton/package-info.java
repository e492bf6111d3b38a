/**
 * Fault-tolerant loop skeletons over distributed domains (FT-GReLoSSS, MoLOToF): {@link
 * io.ironloop.runtime.skeleton.Skeleton} runs calculate → conditional communication → swap → checkpoint over the
 * parts of an N-dimensional {@link io.ironloop.runtime.skeleton.DoubleDomain} split by a {@link
 * io.ironloop.runtime.skeleton.Partition}, with border exchange by a {@link io.ironloop.runtime.skeleton.RoutingPlan},
 * checkpoints by a {@link io.ironloop.runtime.skeleton.CheckpointCondition}, and recovery — inside the job or by a
 * restart on any number of processes — through the block loop's recovery component. See {@code docs/skeleton.md}.
 */
package io.ironloop.runtime.skeleton;
