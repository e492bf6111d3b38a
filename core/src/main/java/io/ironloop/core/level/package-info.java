/**
 * Storage levels: where snapshots live (this process's memory, partner processes' memory, erasure-coded groups'
 * parity, the local disk — whose lines also carry the parity, {@link io.ironloop.core.level.ParityRecord}, and may
 * be on each host's own disk: a restart reads the others' lines through catalogs the ranks exchange,
 * {@link io.ironloop.core.level.DiskLevel#peerCatalogs}),
 * written through a {@link io.ironloop.core.level.LevelChain} nearest first and
 * restored nearest first with fallback; and the remote levels that keep copies of whole committed lines (a
 * shared directory, an object store: {@link io.ironloop.core.level.RemoteLevel}), written in the background by
 * a {@link io.ironloop.core.level.LineReplicator} and brought back level by level by
 * {@link io.ironloop.core.level.LineFallback}.
 */
package io.ironloop.core.level;
