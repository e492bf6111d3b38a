package io.ironloop.group.internal;

import java.util.Set;

/** What a {@link Transport} reports to its session; called on transport threads, in order per sender. */
public interface TransportEvents {
    /** A message arrived. */
    void onMessage(Envelope envelope);

    /** The membership changed: the world ranks now alive (including this one) and the leader's world rank. */
    void onMembership(Set<Integer> alive, int leaderWorldRank);

    /** A failure detector suspects {@code worldRank} (not yet verified). */
    void onSuspect(int worldRank);

    /** {@code worldRank} joined while the group was forming. */
    void onJoined(int worldRank);
}
