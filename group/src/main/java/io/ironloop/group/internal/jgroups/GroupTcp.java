package io.ironloop.group.internal.jgroups;

import java.util.Collection;
import org.jgroups.Address;
import org.jgroups.protocols.TCP;

/**
 * JGroups' TCP transport, which can keep its connections to members that leave the view while the whole
 * group closes together. TCP closes the connection to every member that leaves as soon as it installs the
 * view without it; a coordinator that has just answered a member's leave request then often closes the
 * connection before the answer is written, and the member waits {@code leave_timeout} (1 s) for it. While
 * the group closes together, a connection ends when its other side closes it instead.
 */
public final class GroupTcp extends TCP {
    private volatile boolean keepConnections;

    /** From now on, views no longer close connections; closing the channel still closes them all. */
    void keepConnections() {
        keepConnections = true;
    }

    @Override
    public void retainAll(Collection<Address> members) {
        if (!keepConnections) {
            super.retainAll(members);
        }
    }
}
