/**
 * The checkpoint engine. {@link io.ironloop.core.CheckpointEngine} protects registered state and saves it
 * as lines of a series in a {@link io.ironloop.core.Store}; {@link io.ironloop.core.CheckpointPolicy}
 * decides when; {@link io.ironloop.core.EngineListener} observes.
 */
package io.ironloop.core;
