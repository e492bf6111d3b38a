package io.ironloop.runtime.blocks;

import io.ironloop.IronloopException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Online recovery is impossible: a lost rank's blocks have no surviving copy in memory and no complete line
 * on disk holds them. Thrown on every survivor alike; the job ends (and its supervisor may relaunch it).
 */
public final class RecoveryFailedException extends IronloopException {
    private final Set<Integer> lostWorldRanks;

    public RecoveryFailedException(Set<Integer> lostWorldRanks, String message) {
        super(message);
        this.lostWorldRanks = Set.copyOf(new TreeSet<>(lostWorldRanks));
    }

    /** The world ranks lost. */
    public Set<Integer> lostWorldRanks() {
        return lostWorldRanks;
    }
}
