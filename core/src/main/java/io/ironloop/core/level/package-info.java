/**
 * Storage levels: where snapshots live (this process's memory, partner processes' memory, the local disk;
 * later erasure-coded groups, shared file systems and object stores), written through a {@link
 * io.ironloop.core.level.LevelChain} nearest first and restored nearest first with fallback.
 */
package io.ironloop.core.level;
