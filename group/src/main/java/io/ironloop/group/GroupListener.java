package io.ironloop.group;

import java.util.Set;

/**
 * Membership events of a process group, e.g. to trigger local checkpoints when a member is suspected or
 * has failed. Ranks are world ranks (as given by the launcher or scheduler, never renumbered by
 * {@link ProcessGroup#shrink()}).
 *
 * <p>Threading: events arrive on the group's internal threads; implementations must be fast, must not
 * call group operations, and must not throw (a thrown exception is logged and ignored). Every method has
 * a no-op default.
 */
public interface GroupListener {
    /** A listener that ignores every event. */
    GroupListener NONE = new GroupListener() {
    };

    /** A failure detector suspects {@code worldRank}; verification by another member follows. */
    default void suspected(int worldRank) {
    }

    /** These members were declared failed (verified suspicion, crash or exclusion from the membership). */
    default void failed(Set<Integer> worldRanks) {
    }

    /** {@code worldRank} joined while the group was forming. */
    default void joined(int worldRank) {
    }

    /** The leader (coordinator of membership and agreement) changed; {@code oldLeader} is -1 at start. */
    default void leaderChanged(int oldLeader, int newLeader) {
    }
}
