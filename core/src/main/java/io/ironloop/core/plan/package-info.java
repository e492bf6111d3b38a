/**
 * Planning multi-level protection before a run ({@code ironloop plan}): which levels to use and how often each
 * should save, given the job's size, its state, what each level's save costs and how often nodes, racks and
 * whole jobs fail. {@link io.ironloop.core.plan.Planner} computes the expected overhead and lost work of every
 * candidate chain by formula; {@link io.ironloop.core.plan.FailureSimulation} checks the formula with a seeded
 * Monte-Carlo run of failures over a long virtual time.
 */
package io.ironloop.core.plan;
