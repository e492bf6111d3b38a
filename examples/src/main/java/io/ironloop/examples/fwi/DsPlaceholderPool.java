package io.ironloop.examples.fwi;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntConsumer;

import io.ironloop.group.ProcessGroup;

/**
 * Temporary stand-in for {@code io.ironloop.runtime.tasks.TaskPool} (branch {@code tasks}) with the same
 * {@code runRound} contract and only the static (DS) placement: the not-yet-done tasks in contiguous blocks,
 * in task order, one per rank. Deleted when the task pool lands.
 */
final class DsPlaceholderPool implements AutoCloseable {
    private final ProcessGroup group;

    private DsPlaceholderPool(ProcessGroup group) {
        this.group = group;
    }

    static DsPlaceholderPool create(ProcessGroup group) {
        return new DsPlaceholderPool(group);
    }

    /** Runs this rank's block of the tasks not in {@code alreadyDone}; returns the tasks it ran. */
    List<Integer> runRound(long round, int taskCount, BitSet alreadyDone, IntConsumer work) {
        List<Integer> open = new ArrayList<>();
        for (int t = 0; t < taskCount; t++) {
            if (!alreadyDone.get(t)) {
                open.add(t);
            }
        }
        int size = group.size();
        int rank = group.rank();
        int base = open.size() / size;
        int extra = open.size() % size;
        int from = rank * base + Math.min(rank, extra);
        int to = from + base + (rank < extra ? 1 : 0);
        List<Integer> mine = open.subList(from, to);
        for (int t : mine) {
            work.accept(t);
        }
        return List.copyOf(mine);
    }

    @Override
    public void close() {
    }
}
