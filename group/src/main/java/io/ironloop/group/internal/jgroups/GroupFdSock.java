package io.ironloop.group.internal.jgroups;

import org.jgroups.View;
import org.jgroups.protocols.FD_SOCK2;

/**
 * JGroups' FD_SOCK2 (crash detection through a ring of sockets), which can stand aside while the whole group
 * closes together. FD_SOCK2 answers every departure, and every view, by connecting to the next member and
 * waiting up to {@code connect_timeout} ({@code TIME_MAX_WAIT}) for its answer; during the collective close
 * the next member is leaving too, and a process that is exiting still accepts connections but never answers,
 * so the attempt held a pool thread for seconds and closing the channel waited for it (up to 3 s). Once
 * {@link #standAside()} is called it no longer reacts to closed connections or new views; a crash during the
 * close is then detected by the heartbeats, in {@code TIME_MAX_WAIT}.
 */
public final class GroupFdSock extends FD_SOCK2 {
    private volatile boolean standingAside;

    /** From now on, closed connections and new views start no connection to another member. */
    void standAside() {
        standingAside = true;
        shutting_down = true; // FD_SOCK2's own flag: a closed connection to the monitored member is not a crash
    }

    @Override
    protected void handleView(View v) {
        if (!standingAside) {
            super.handleView(v);
        }
    }
}
