package io.ironloop.launcher;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The control connections of one attempt's ranks: which connection speaks for which rank (one each, from the
 * rank's own process), and the iterations at which each rank waits for the supervisor (where a fault is
 * pending). Used by the supervisor thread.
 */
final class RankChannels {
    private final int attempt;
    private final RankConnection[] connections;
    private final List<Set<Long>> sync = new ArrayList<>();

    RankChannels(int attempt, int size) {
        this.attempt = attempt;
        this.connections = new RankConnection[size];
        for (int r = 0; r < size; r++) {
            sync.add(Set.of());
        }
    }

    /** Why a connection's hello must be refused, if it must: another attempt, rank or process, or a second connection. */
    Optional<String> refusal(RankConnection c, AttemptRanks ranks) {
        int r = c.rank();
        int size = connections.length;
        if (c.attempt() != attempt) {
            return Optional.of("attempt " + c.attempt() + " is not the current attempt (" + attempt + ")");
        } else if (r < 0 || r >= size) {
            return Optional.of("rank " + r + " does not exist in a job of " + size + " ranks");
        } else if (ranks.process(r).pid() != c.pid()) {
            return Optional.of("pid " + c.pid() + " is not the process of rank " + r + " (pid " + ranks.process(r).pid() + ")");
        } else if (connections[r] != null || ranks.exited(r)) {
            return Optional.of("rank " + r + " is already connected or has exited");
        }
        return Optional.empty();
    }

    /** Records rank {@code r}'s connection, welcomed with the iterations at which it waits. */
    void accept(int r, RankConnection c, List<Long> syncIterations) {
        connections[r] = c;
        sync.set(r, Set.copyOf(syncIterations));
    }

    /** Whether {@code c} is the accepted connection of its rank in this attempt (messages from others are dropped). */
    boolean isCurrent(RankConnection c) {
        return c.accepted() && c.attempt() == attempt && connections[c.rank()] == c;
    }

    /** Rank {@code r}'s connection, once accepted. */
    Optional<RankConnection> of(int r) {
        return Optional.ofNullable(connections[r]);
    }

    /** Whether rank {@code r} waits for an acknowledgement at iteration {@code it}. */
    boolean waitsAt(int r, long it) {
        return sync.get(r).contains(it);
    }

    /** Waits (bounded, per connection) until every connection has delivered its last message. */
    void awaitFinished(Duration timeout) throws InterruptedException {
        for (RankConnection c : connections) {
            if (c != null) {
                c.awaitFinished(timeout);
            }
        }
    }

    /** Closes every connection. */
    void closeAll() {
        for (RankConnection c : connections) {
            if (c != null) {
                c.close();
            }
        }
    }
}
