package io.ironloop.group;

/**
 * Who sends heartbeats to whom, and so how heartbeat traffic grows with the number of members N.
 * Crashes (a closed socket) are detected by a socket ring in every arrangement; heartbeats catch hung or
 * unreachable members.
 */
public enum HeartbeatArrangement {
    /**
     * DeLIA's leader-centred arrangement: every member heartbeats to the leader and the leader to every
     * member; 2(N−1) messages per interval. The leader watches everyone, everyone watches the leader.
     */
    STAR,
    /** RADIC's watchdog ring: every member heartbeats to its successor and watches its predecessor; N messages per interval. */
    RING,
    /** JGroups' FD_ALL3: every member heartbeats to every other; N(N−1) messages per interval (for comparison). */
    ALL_TO_ALL
}
