/**
 * The process group: N ranks of one job that exchange messages, run bit-reproducible collectives, and
 * survive the failure of members with ULFM-like semantics (a failure revokes the group, every survivor's
 * operations throw {@link io.ironloop.group.ProcessFailedException}, {@link io.ironloop.group.ProcessGroup#shrink()}
 * continues with the survivors, {@link io.ironloop.group.ProcessGroup#agree(long)} agrees despite failures).
 * Create a group with {@link io.ironloop.group.ProcessGroups} (JGroups, between processes) or
 * {@link io.ironloop.group.InJvmCluster} (ranks as threads, for tests); configure it with
 * {@link io.ironloop.group.GroupConfig} and the keys of {@link io.ironloop.group.GroupKeys}.
 */
package io.ironloop.group;
