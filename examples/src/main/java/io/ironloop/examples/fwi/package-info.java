/**
 * A small but real 2-D acoustic full-waveform inversion (FWI), the case study of the DeLIA paper,
 * written so that a fault-tolerance runtime can drive it task by task.
 *
 * <p>The pieces, bottom up:
 * <ul>
 *   <li>{@link io.ironloop.examples.fwi.FwiConfig}: sizes and settings, with the {@code test()} and
 *       {@code demo()} presets;</li>
 *   <li>{@link io.ironloop.examples.fwi.FwiProblem}: grid, acquisition, true and starting models, and
 *       the observed data;</li>
 *   <li>{@link io.ironloop.examples.fwi.Shot}: one task, forward modelling plus the adjoint-state
 *       gradient of the L2 misfit (finite differences, 2nd order in time, 4th in space, with a
 *       damping sponge), returning a {@link io.ironloop.examples.fwi.ShotResult};</li>
 *   <li>{@link io.ironloop.examples.fwi.ShotLedger}: the local state, per-shot results of a round,
 *       summed in task order;</li>
 *   <li>{@link io.ironloop.examples.fwi.Lbfgs} and {@link io.ironloop.examples.fwi.FwiState}: the
 *       global state in plain arrays;</li>
 *   <li>{@link io.ironloop.examples.fwi.FwiInversion}: rounds of shots, reduction, L-BFGS update with
 *       an Armijo line search, hooks ({@link io.ironloop.examples.fwi.FwiListener}) at task and round
 *       boundaries, and the result digest;</li>
 *   <li>{@link io.ironloop.examples.fwi.FwiMain}: the single-process program, the failure-free
 *       reference;</li>
 *   <li>{@link io.ironloop.examples.fwi.FwiRank}: one rank of the distributed, fault-tolerant inversion
 *       on Ironloop's runtime and task pool.</li>
 * </ul>
 *
 * <p>Only {@code FwiRank} depends on Ironloop's fault-tolerance API. Everything is deterministic: shots are
 * single-threaded pure functions, reductions run in task order, and setup uses
 * {@link java.lang.StrictMath}; so the final model has the same bits however the shots were
 * scheduled, interrupted or resumed.
 */
package io.ironloop.examples.fwi;
