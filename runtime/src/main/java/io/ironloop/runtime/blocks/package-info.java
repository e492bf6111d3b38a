/**
 * Block-structured loops that keep going when a process dies (waLBerla's diskless checkpointing and
 * recovery without relaunch): {@link io.ironloop.runtime.blocks.BlockLoop} over {@link
 * io.ironloop.runtime.blocks.Block}s of a {@link io.ironloop.runtime.blocks.BlockLayout}, snapshotted to
 * memory, partner memory and disk, recovered inside the job. The protocol is in {@code docs/recovery.md}.
 */
package io.ironloop.runtime.blocks;
