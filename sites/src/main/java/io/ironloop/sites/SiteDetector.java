package io.ironloop.sites;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The detection function of one cluster protector (paper 004, Algorithm 2) as a state machine with no clock, no
 * thread and no socket of its own: the caller feeds it what happened, with the time, and carries out the actions it
 * returns. So the same code runs over real sockets ({@link SiteProtector}) and in tests with injected reachability.
 *
 * <p>Protector X sends heartbeats to its own protector (the previous site W) and watches the site it protects (the
 * next site Y), whose heartbeats it receives. When Y has been silent for {@code timeout}, X does not decide alone:
 * it asks the site after Y (Z, the third party) to reach Y ({@link Action.AskToCheck}). If Z reaches Y, only the
 * link X–Y is cut and nothing is declared ({@link Action.LinkCut}; X asks again after another timeout). If Z cannot
 * reach Y either, Y is declared failed ({@link Action.DeclareFailed}) and X, which holds Y's site checkpoint,
 * recovers it. A protector that has lost both neighbours — no heartbeat from Y and no acknowledgement from W for
 * {@code timeout} — is the one cut off, and stops itself ({@link Action.StopSelf}), as RADIC prescribes. In a ring
 * of two sites no third party exists: Y is then declared failed on X's observation alone, which the action says. A
 * protector whose own ticks stopped for more than {@code timeout} (its process stopped by {@code SIGSTOP}, or starved)
 * blames nobody for the silence it slept through: it watches both neighbours afresh from its next tick, whose
 * heartbeat brings it whatever table changed meanwhile.
 *
 * <p>The same rule watches the nodes of one site (RADIC's node level, {@link NodeProtector}): built on a ring of node
 * names ({@link #SiteDetector(String, List, Duration, long)}) instead of a table, a node is declared failed only when
 * both its ring neighbours have lost it — its watcher, and the node on its other side, asked to check it — and a node
 * protector that has lost both neighbours stops itself. One definition of the rule serves both levels.
 *
 * <p>Threading: not thread-safe; one caller (the protector's loop) drives it.
 */
public final class SiteDetector {
    /** What the caller must do. */
    public sealed interface Action {
        /** Ask {@code third} whether it can reach {@code target}; report the answer to {@link #verified}. */
        record AskToCheck(String third, String target) implements Action {
        }

        /** {@code target} is lost: recover it. {@code verifiedBy} is the third site that confirmed, empty in a ring of two. */
        record DeclareFailed(String target, String verifiedBy) implements Action {
        }

        /** {@code third} still reaches {@code target}: only the link to it is cut; nothing is declared. */
        record LinkCut(String target, String third) implements Action {
        }

        /** Both neighbours are lost: this protector is the one cut off and stops. */
        record StopSelf(String reason) implements Action {
        }
    }

    /** Where the watch of the protected site stands. */
    public enum State {
        /** Heartbeats arrive. */
        WATCHING,
        /** The protected site went silent; a third site was asked to check it. */
        VERIFYING,
        /** The protected site was declared failed; waiting for the table after its recovery. */
        DECLARED,
        /** This protector lost both neighbours and stopped. */
        STOPPED
    }

    private final String self;
    private final long timeoutNanos;
    private Topology topology; // null for a ring of nodes
    private List<String> ring;
    private State state = State.WATCHING;
    private long lastHeard;
    private long lastAcked;
    private long lastTick;

    /**
     * A detector for the protector of {@code self}, with both neighbours taken as heard at {@code nowNanos}.
     *
     * @param self this protector's site, in the ring of {@code topology}
     * @param topology the table
     * @param timeout silence after which a neighbour is suspected
     * @param nowNanos the current time, on the caller's monotonic clock
     * @throws IllegalArgumentException if {@code timeout} is not positive or {@code self} is not in the ring
     */
    public SiteDetector(String self, Topology topology, Duration timeout, long nowNanos) {
        this(self, timeout);
        topology(topology, nowNanos);
    }

    /**
     * A detector on a ring of names rather than a table: the nodes of one site ({@link NodeProtector}). Each member
     * watches the one after it in {@code ring} and sends heartbeats to the one before it.
     *
     * @param self this member, in {@code ring}
     * @param ring the members in ring order
     * @param timeout silence after which a neighbour is suspected
     * @param nowNanos the current time, on the caller's monotonic clock
     * @throws IllegalArgumentException if {@code timeout} is not positive or {@code self} is not in {@code ring}
     */
    public SiteDetector(String self, List<String> ring, Duration timeout, long nowNanos) {
        this(self, timeout);
        ring(ring, nowNanos);
    }

    private SiteDetector(String self, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the detection timeout must be positive, got " + timeout);
        }
        this.self = Objects.requireNonNull(self, "self");
        this.timeoutNanos = timeout.toNanos();
    }

    /** This protector's site. */
    public String self() {
        return self;
    }

    /** The state of the watch. */
    public State state() {
        return state;
    }

    /** The table the detector works on; null for a detector on a ring of nodes. */
    public Topology topology() {
        return topology;
    }

    /** The ring the detector works on: the table's running sites, or the nodes it was given. */
    public List<String> ring() {
        return ring;
    }

    /** The site this protector watches (the next one in the ring), or itself when it is the only one. */
    public String watched() {
        return after(self);
    }

    /** The site this protector sends heartbeats to (the previous one in the ring). */
    public String protector() {
        return ring.get(Math.floorMod(ring.indexOf(self) - 1, ring.size()));
    }

    private String after(String member) {
        return ring.get(Math.floorMod(ring.indexOf(member) + 1, ring.size()));
    }

    /**
     * A heartbeat arrived from {@code site}. Only the watched site's count; a heartbeat while verifying ends the
     * suspicion.
     */
    public void heartbeatFrom(String site, long nowNanos) {
        if (site.equals(watched()) && state != State.STOPPED && state != State.DECLARED) {
            lastHeard = nowNanos;
            state = State.WATCHING;
        }
    }

    /** This protector's heartbeat to its own protector was acknowledged. */
    public void heartbeatAcked(long nowNanos) {
        lastAcked = nowNanos;
    }

    /**
     * Time passes: returns what to do now (at most one action).
     *
     * @param nowNanos the current time
     * @return the actions, usually none
     */
    public List<Action> tick(long nowNanos) {
        List<Action> out = new ArrayList<>();
        long sinceLastTick = nowNanos - lastTick;
        lastTick = nowNanos;
        if (state == State.STOPPED || state == State.DECLARED || ring.size() < 2) {
            return out;
        }
        if (sinceLastTick > timeoutNanos) {
            // this protector itself did not run for a timeout (stopped by SIGSTOP, or starved): its neighbours' silence
            // meanwhile is its own; it watches them afresh from now, and learns what changed from its next heartbeat
            lastHeard = Math.max(lastHeard, nowNanos);
            lastAcked = Math.max(lastAcked, nowNanos);
            return out;
        }
        boolean watchedSilent = nowNanos - lastHeard > timeoutNanos;
        boolean protectorSilent = nowNanos - lastAcked > timeoutNanos;
        if (watchedSilent && protectorSilent && ring.size() > 2) { // in a ring of two both neighbours are one site
            state = State.STOPPED;
            out.add(new Action.StopSelf((topology == null ? "node " : "site ") + self + " lost both neighbours: no heartbeat from " + watched() + " and no answer from "
                    + protector() + " for " + Duration.ofNanos(timeoutNanos).toMillis() + " ms; it is the one cut off"));
            return out;
        }
        if (watchedSilent && state == State.WATCHING) {
            String target = watched();
            String third = after(target);
            if (third.equals(self)) { // a ring of two: nobody else to ask
                state = State.DECLARED;
                out.add(new Action.DeclareFailed(target, ""));
            } else {
                state = State.VERIFYING;
                out.add(new Action.AskToCheck(third, target));
            }
        }
        return out;
    }

    /**
     * The third site's answer to {@link Action.AskToCheck}.
     *
     * @param target the site checked
     * @param third the site that checked
     * @param reached whether {@code third} reached {@code target}
     * @param nowNanos the current time
     * @return {@link Action.LinkCut} or {@link Action.DeclareFailed}; nothing when the answer is stale (a heartbeat came
     *     meanwhile, or the table changed)
     */
    public List<Action> verified(String target, String third, boolean reached, long nowNanos) {
        if (state != State.VERIFYING || !target.equals(watched())) {
            return List.of();
        }
        if (reached) {
            state = State.WATCHING;
            lastHeard = nowNanos; // suspect again only after another full timeout
            return List.of(new Action.LinkCut(target, third));
        }
        state = State.DECLARED;
        return List.of(new Action.DeclareFailed(target, third));
    }

    /**
     * A new table (after a recovery, here or announced by another protector): new neighbours, both taken as heard now.
     *
     * @throws IllegalArgumentException if {@code self} is not in its ring
     */
    public void topology(Topology next, long nowNanos) {
        if (next.ring().stream().noneMatch(s -> s.name().equals(self))) {
            throw new IllegalArgumentException("site " + self + " is not in the ring of " + next);
        }
        this.topology = next;
        this.ring = next.ring().stream().map(Topology.Site::name).toList();
        restart(nowNanos);
    }

    /**
     * A new ring of names (a node left the site's ring): new neighbours, both taken as heard now.
     *
     * @throws IllegalArgumentException if {@code self} is not in {@code next}
     */
    public void ring(List<String> next, long nowNanos) {
        if (!next.contains(self) || new java.util.HashSet<>(next).size() != next.size()) {
            throw new IllegalArgumentException(self + " is not once in the ring " + next);
        }
        this.ring = List.copyOf(next);
        restart(nowNanos);
    }

    private void restart(long nowNanos) {
        this.lastHeard = nowNanos;
        this.lastAcked = nowNanos;
        this.lastTick = nowNanos;
        if (state != State.STOPPED) {
            state = State.WATCHING;
        }
    }
}
