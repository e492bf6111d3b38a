package io.ironloop.runtime.tasks;

import io.ironloop.runtime.tasks.RoundReport.Transfer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One rank's share of one round: the queue of tasks it holds but has not started, and what it ran, stole
 * and gave away. The application thread takes tasks from the head; service threads give the tail away.
 * Taking a task off the queue is what "started" means: from then on nobody else can get it.
 *
 * <p>Threading: every method is atomic (synchronized); the queue is shared by the application thread and
 * the pool's service threads.
 */
final class RoundState {
    final long round;
    /** CRC32C of (taskCount, alreadyDone): ranks compare it to detect that they disagree on the round. */
    final int fingerprint;
    final int taskCount;
    final int assigned;
    final int skipped;
    private final int rank;
    private final ArrayDeque<Integer> queue = new ArrayDeque<>();
    private final List<Integer> executed = new ArrayList<>();
    private final List<Transfer> stolen = new ArrayList<>();
    private final List<Transfer> given = new ArrayList<>();

    private RoundState(long round, int taskCount, BitSet alreadyDone, int rank, int size) {
        this.round = round;
        this.taskCount = taskCount;
        this.rank = rank;
        this.fingerprint = fingerprint(taskCount, alreadyDone);
        this.skipped = alreadyDone.cardinality();
        int remaining = taskCount - skipped;
        int from = blockStart(remaining, size, rank);
        int to = blockStart(remaining, size, rank + 1);
        // the remaining tasks in task order; this rank's block is positions [from, to) of that sequence
        int position = 0;
        for (int task = alreadyDone.nextClearBit(0); task < taskCount && position < to; task = alreadyDone.nextClearBit(task + 1)) {
            if (position >= from) {
                queue.addLast(task);
            }
            position++;
        }
        this.assigned = queue.size();
    }

    /**
     * The static start of a round on {@code rank}: the tasks in {@code [0, taskCount)} that are not in
     * {@code alreadyDone}, split in task order into {@code size} contiguous blocks whose lengths differ by
     * at most one (the first {@code remaining % size} blocks are the longer ones).
     */
    static RoundState start(long round, int taskCount, BitSet alreadyDone, int rank, int size) {
        return new RoundState(round, taskCount, alreadyDone, rank, size);
    }

    /** Position, in the sequence of remaining tasks, where {@code rank}'s block begins. */
    static int blockStart(int remaining, int size, int rank) {
        return rank * (remaining / size) + Math.min(rank, remaining % size);
    }

    static int fingerprint(int taskCount, BitSet alreadyDone) {
        long[] words = alreadyDone.toLongArray();
        ByteBuffer b = ByteBuffer.allocate(Integer.BYTES + Long.BYTES * words.length).putInt(taskCount);
        for (long w : words) {
            b.putLong(w);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.flip());
        return (int) crc.getValue();
    }

    /** Takes the next task to run here (it counts as started), or null when the queue is empty. */
    synchronized Integer next() {
        Integer task = queue.pollFirst();
        if (task != null) {
            executed.add(task);
        }
        return task;
    }

    /**
     * Removes the second half of the not-started tasks (rounded up: the last one too, since this rank is
     * busy with a task or about to start one while the thief is idle) for {@code thief}.
     *
     * @return the tasks given, ascending; empty when nothing is left to give
     */
    synchronized List<Integer> giveTail(int thief) {
        int n = queue.size();
        if (n == 0) {
            return List.of();
        }
        Integer[] out = new Integer[(n + 1) / 2];
        for (int i = out.length - 1; i >= 0; i--) {
            out[i] = queue.pollLast();
        }
        List<Integer> tasks = List.of(out);
        given.add(new Transfer(thief, tasks));
        return tasks;
    }

    /**
     * Adds tasks stolen from {@code victim} and starts the first of them in the same step, so that a task
     * never travels on before anybody ran it (which bounds the number of steals by the number of tasks).
     *
     * @param tasks non-empty, ascending
     * @return the task to run now
     */
    synchronized int receiveAndStart(int victim, List<Integer> tasks) {
        stolen.add(new Transfer(victim, tasks));
        queue.addAll(tasks);
        return next();
    }

    /** Why a message from a rank with these round parameters does not belong to this round, or null if it does. */
    String mismatch(int peer, long peerRound, int peerFingerprint) {
        if (peerRound != round) {
            return "rank " + peer + " is in round " + peerRound + " while rank " + rank + " is in round " + round
                    + ": every rank must run the same rounds in the same order";
        }
        if (peerFingerprint != fingerprint) {
            return "ranks " + peer + " and " + rank + " disagree on round " + round + "'s task count or already-done tasks "
                    + "(fingerprints " + Integer.toHexString(peerFingerprint) + " and " + Integer.toHexString(fingerprint)
                    + "): every rank must pass the same taskCount and the same alreadyDone set (the union over all ranks)";
        }
        return null;
    }

    synchronized RoundReport report() {
        return new RoundReport(round, rank, executed, stolen, given);
    }
}
