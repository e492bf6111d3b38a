package io.ironloop.group.internal.jgroups;

import java.util.concurrent.TimeUnit;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;
import org.jgroups.protocols.PingData;
import org.jgroups.util.Responses;

/**
 * Sits just above discovery and decides who may create the cluster while a job forms: only rank 0. A
 * job's size and ranks are known in advance, so there is no reason to let whoever finds nobody within
 * one discovery round (a slow start, a loaded machine) found a cluster of its own, which would then
 * have to be merged. Every other rank repeats discovery until it finds a coordinator, for at most the
 * join timeout; rank 0 joins a coordinator if discovery finds one and otherwise creates the cluster,
 * even when it hears from other ranks still looking for one.
 *
 * <p>Runs on the joining thread (inside {@code JChannel.connect}); the group's own MERGE3 remains as a
 * safety net during formation.
 */
public final class FormationGate extends Protocol {
    /**
     * The longest one discovery round waits for answers. Peers answer within milliseconds on a LAN, so a
     * long round only delays formation: rank 0 would wait it out before creating the cluster, and every
     * other rank whose round began before rank 0 created it would wait it out again before asking anew.
     */
    static final long ROUND_MILLIS = 200;
    private final boolean creator;
    private final long patienceNanos;

    /** For JGroups' reflection only; use {@link #FormationGate(boolean, long)}. */
    public FormationGate() {
        this(true, 0);
    }

    /**
     * @param creator whether this member (rank 0) creates the cluster when discovery finds no coordinator
     * @param patienceMillis how long a non-creator keeps looking for a coordinator before it lets the
     *     membership protocol decide (which makes it a singleton, and formation will then time out)
     */
    public FormationGate(boolean creator, long patienceMillis) {
        this.creator = creator;
        this.patienceNanos = TimeUnit.MILLISECONDS.toNanos(patienceMillis);
    }

    @Override
    public Object down(Event evt) {
        if (evt.getType() != Event.FIND_INITIAL_MBRS) {
            return down_prot.down(evt);
        }
        long requested = evt.getArg();
        long roundMillis = Math.min(ROUND_MILLIS, requested);
        long deadline = System.nanoTime() + patienceNanos;
        while (true) {
            Responses r = (Responses) down_prot.down(evt);
            r.waitFor(roundMillis);
            if (hasCoordinator(r)) {
                return r;
            }
            if (creator) {
                r.done();
                log.debug("%s: discovery found no coordinator (%d responses); rank 0 creates the cluster", local_addr, r.size());
                return new Responses(false).done();
            }
            if (System.nanoTime() - deadline > 0) {
                log.warn("%s: no coordinator found within %d ms; giving up waiting for rank 0", local_addr,
                        TimeUnit.NANOSECONDS.toMillis(patienceNanos));
                return r;
            }
            r.done();
            log.debug("%s: discovery found no coordinator yet (%d responses); waiting for rank 0", local_addr, r.size());
        }
    }

    private static boolean hasCoordinator(Responses r) {
        for (PingData d : r) {
            if (d.isCoord()) {
                return true;
            }
        }
        return false;
    }
}
