package io.ironloop.runtime.tasks;

import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.tasks.StealMessages.Kind;
import io.ironloop.runtime.tasks.StealMessages.Reply;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places the tasks of each round of an iterative application (an FWI iteration's shots) on the ranks of a
 * {@link ProcessGroup} and runs this rank's share, with DeLIA's two workload schedulers.
 *
 * <pre>{@code
 * try (TaskPool pool = TaskPool.create(group, WorkloadScheduler.CTWS, TaskPoolListener.NONE)) {
 *     for (int it = first; it < iterations; it++) {
 *         double[][] perShot = new double[shots][];
 *         pool.runRound(it, shots, finishedBeforeRestart(it), s -> perShot[s] = gradientOfShot(s));
 *         double[] g = reduceInTaskOrder(group.allgather(encode(perShot)));   // same bits whoever ran what
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p><b>Placement.</b> A round has tasks {@code 0 … taskCount-1}. Tasks in {@code alreadyDone} (finished
 * before a restart) are skipped; the others start in contiguous blocks, in task order, one per rank (block
 * lengths differ by at most one), the same on every rank. With {@link WorkloadScheduler#DS} each rank runs
 * its block. With {@link WorkloadScheduler#CTWS} a rank whose queue is empty asks the others in cyclic order
 * ({@code rank+1, rank+2, …}, starting again from the last rank that gave something) for work; a victim
 * hands over the second half (rounded up) of the tasks it has not started and keeps going; a rank is done
 * when every other rank in turn has answered that it has nothing to give. The protocol and its message
 * tags are in {@code docs/runtime-tasks.md}.
 *
 * <p><b>Results do not depend on placement.</b> The pool only decides who runs a task, never what it
 * computes; which rank runs a task depends on timing. For bit-identical results whatever the scheduler, the
 * number of ranks or the interruptions, keep one result per task and reduce them in task order (for
 * example, allgather the per-task results and add them up from task 0 to task {@code taskCount-1}), never
 * in the order a rank happened to run them.
 *
 * <p><b>Collective use.</b> Every rank of the group calls {@link #runRound} for the same rounds, in the
 * same order, with the same {@code taskCount} and {@code alreadyDone} (as with collectives, a mismatch can
 * hang; with CTWS a mismatch seen in a message fails the round with {@link IllegalStateException}). One
 * pool per group: the pool uses the point-to-point tags from 2<sup>30</sup> up, which the application must
 * not use on the same group. {@code runRound} does not wait for the other ranks' tasks; the application's
 * next collective does.
 *
 * <p><b>Threading.</b> {@code runRound} is called by one application thread at a time, and the work
 * callback runs on that thread, one task after the other. With CTWS and more than one rank, the pool has
 * one service thread per other rank that answers that rank's steal requests while the application thread
 * is busy (the group has no any-source receive); {@link #close()} stops them. An interrupt does not stop a
 * round: the pool keeps the thread's interrupt status for the work callback to act upon.
 *
 * <p><b>Failures.</b> When a member of the group fails, {@code runRound} throws the group's
 * {@link ProcessFailedException} promptly: at once if it is waiting for an answer, otherwise before the
 * next task (a task already running is not interrupted). The pool is unusable afterwards; after
 * {@link ProcessGroup#shrink()} create a new pool on the new group. If the work callback throws, the round
 * ends on this rank with that exception; with CTWS, the tasks it had not started remain available to the
 * other ranks' stealing while the pool is open.
 */
public final class TaskPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TaskPool.class);
    private static final long STOP_WAIT_MILLIS = 2_000;

    private final ProcessGroup group;
    private final WorkloadScheduler scheduler;
    private final TaskPoolListener listener;
    private final boolean stealing;
    private final List<PeerService> services = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<RuntimeException> serviceFailure = new AtomicReference<>();
    private final AtomicBoolean inRound = new AtomicBoolean();
    private volatile boolean closed;
    private boolean anyRound;
    private long lastRound;

    private TaskPool(ProcessGroup group, WorkloadScheduler scheduler, TaskPoolListener listener) {
        this.group = group;
        this.scheduler = scheduler;
        this.listener = new GuardedListener(listener);
        this.stealing = scheduler == WorkloadScheduler.CTWS && group.size() > 1;
        if (stealing) {
            for (int peer = 0; peer < group.size(); peer++) {
                if (peer == group.rank()) {
                    continue;
                }
                PeerService s = new PeerService(group, peer, this.listener, this::serviceFailed);
                Thread t = new Thread(s, "ironloop-tasks-" + group.jobId() + "-r" + group.rank() + "-serves-r" + peer);
                t.setDaemon(true);
                services.add(s);
                threads.add(t);
            }
            threads.forEach(Thread::start);
        }
    }

    /**
     * Creates this rank's pool. Every rank of {@code group} creates one, with the same scheduler.
     *
     * @param group the ranks that share the tasks; the pool does not close it
     * @param scheduler how tasks are placed
     * @param listener observes rounds and steals ({@link TaskPoolListener#NONE} for none)
     * @return a pool; with {@link WorkloadScheduler#CTWS} and more than one rank its service threads are running
     * @throws NullPointerException if an argument is null
     */
    public static TaskPool create(ProcessGroup group, WorkloadScheduler scheduler, TaskPoolListener listener) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(listener, "listener");
        return new TaskPool(group, scheduler, listener);
    }

    /** The scheduler this pool was created with. */
    public WorkloadScheduler scheduler() {
        return scheduler;
    }

    /**
     * Runs one round on this rank: its static block, then (with CTWS) tasks stolen from other ranks, calling
     * {@code work.accept(task)} on this thread for each task, one after the other. Returns when this rank has
     * nothing left and every task of the round has been handed to some rank; it does not wait for the other
     * ranks to finish theirs.
     *
     * @param round the round number, non-negative and larger than this pool's previous round (e.g. a counter
     *     of task rounds, which may differ from the iteration number when an iteration has several rounds)
     * @param taskCount the number of tasks of the round, {@code 0 … taskCount-1}
     * @param alreadyDone tasks finished before a restart (the union over all ranks, identical on every rank);
     *     they are never run. Not modified.
     * @param work runs one task; may throw, which ends the round on this rank
     * @return what this rank ran, stole and gave away
     * @throws ProcessFailedException if a member of the group failed
     * @throws IllegalArgumentException if {@code round} is negative or not after the previous round, if
     *     {@code taskCount} is negative, or if {@code alreadyDone} holds a task {@code >= taskCount}
     * @throws IllegalStateException if the pool is closed, another thread is in {@code runRound}, or the ranks
     *     disagree on the round (CTWS)
     * @throws RuntimeException whatever {@code work} threw (also {@link Error}s)
     */
    public RoundReport runRound(long round, int taskCount, BitSet alreadyDone, IntConsumer work) {
        Objects.requireNonNull(alreadyDone, "alreadyDone");
        Objects.requireNonNull(work, "work");
        if (round < 0) {
            throw new IllegalArgumentException("round numbers are non-negative, not " + round);
        }
        if (taskCount < 0) {
            throw new IllegalArgumentException("round " + round + ": the task count is negative: " + taskCount);
        }
        if (alreadyDone.length() > taskCount) {
            throw new IllegalArgumentException("round " + round + " has " + taskCount + " tasks but alreadyDone holds task "
                    + (alreadyDone.length() - 1));
        }
        if (closed) {
            throw new IllegalStateException("the task pool of rank " + group.rank() + " is closed (round " + round + ")");
        }
        if (!inRound.compareAndSet(false, true)) {
            throw new IllegalStateException("runRound is already running on another thread of rank " + group.rank());
        }
        try {
            if (anyRound && round <= lastRound) {
                throw new IllegalArgumentException("round " + round + " does not come after round " + lastRound
                        + " of this pool: round numbers must increase (count rounds, not iterations, if an iteration runs several)");
            }
            anyRound = true;
            lastRound = round;
            return run(RoundState.start(round, taskCount, alreadyDone, group.rank(), group.size()), work);
        } finally {
            inRound.set(false);
        }
    }

    /**
     * Runs a valid round. The round is registered with the services first, whatever happens next, so that
     * this rank answers the others' requests in it and ends it with DONE even when it fails at once (a member
     * failed, a service saw a mismatch): the other ranks then take over its tasks or fail, but never hang.
     */
    private RoundReport run(RoundState state, IntConsumer work) {
        if (stealing) {
            services.forEach(s -> s.enqueue(state));
        }
        listener.roundStarted(state.round, state.assigned, state.skipped);
        RoundReport report;
        try {
            runQueue(state, work);
            if (stealing) {
                steal(state, work);
            }
            report = state.report();
        } catch (RuntimeException | Error e) {
            listener.roundFailed(state.round, e);
            throw e;
        } finally {
            if (stealing) {
                sendDone(state);
            }
        }
        listener.roundFinished(report);
        return report;
    }

    private void runQueue(RoundState state, IntConsumer work) {
        while (true) {
            checkHealthy(state.round);
            Integer task = state.next();
            if (task == null) {
                return;
            }
            work.accept(task);
        }
    }

    /** Asks the other ranks in cyclic order until each in turn has answered that it has nothing to give. */
    private void steal(RoundState state, IntConsumer work) {
        int size = group.size();
        int rank = group.rank();
        int serviceTag = StealMessages.serviceTag(state.round);
        byte[] request = StealMessages.control(Kind.REQUEST, state.round, state.fingerprint);
        int victim = (rank + 1) % size;
        int refusals = 0;
        while (refusals < size - 1) {
            checkHealthy(state.round);
            group.send(victim, serviceTag, request);
            Reply reply = awaitReply(state, victim);
            if (reply.tasks().isEmpty()) {
                refusals++;
                victim = (victim + 1) % size == rank ? (victim + 2) % size : (victim + 1) % size;
                continue;
            }
            refusals = 0;
            int first = state.receiveAndStart(victim, reply.tasks());
            listener.tasksStolen(state.round, victim, reply.tasks());
            work.accept(first);
            runQueue(state, work);
        }
    }

    /**
     * Waits for {@code victim}'s answer. An interrupt does not end the wait: the answer may carry tasks that
     * nobody else will run, so they must reach this rank's queue (the interrupt status is restored).
     */
    private Reply awaitReply(RoundState state, int victim) {
        boolean interrupted = false;
        try {
            while (true) {
                byte[] bytes;
                try {
                    bytes = group.receive(victim, StealMessages.replyTag(state.round));
                } catch (IllegalStateException e) {
                    if (Thread.interrupted()) {
                        interrupted = true;
                        continue;
                    }
                    throw e;
                }
                Reply reply = StealMessages.decodeReply(bytes, victim);
                if (reply.mismatch()) {
                    throw new IllegalStateException("rank " + victim + " refused a steal request of rank " + group.rank()
                            + " in round " + state.round + ": the ranks disagree on the round number, the task count or the "
                            + "already-done tasks (see the log of rank " + victim + ")");
                }
                String problem = state.mismatch(victim, reply.round(), state.fingerprint);
                if (problem != null) {
                    throw new IllegalStateException(problem);
                }
                return reply;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Tells every other rank's service that this rank sends no more requests in the round. */
    private void sendDone(RoundState state) {
        byte[] done = StealMessages.control(Kind.DONE, state.round, state.fingerprint);
        int serviceTag = StealMessages.serviceTag(state.round);
        for (int peer = 0; peer < group.size(); peer++) {
            if (peer == group.rank()) {
                continue;
            }
            try {
                group.send(peer, serviceTag, done);
            } catch (RuntimeException e) {
                // the group failed or was closed: nobody is waiting for this notice any more
                LOG.debug("rank {}: end of round {} not sent to rank {}: {}", group.rank(), state.round, peer, e.getMessage());
                return;
            }
        }
    }

    private void checkHealthy(long round) {
        RuntimeException f = serviceFailure.get();
        if (f != null) {
            throw new IllegalStateException("task pool of rank " + group.rank() + ", round " + round + ": " + f.getMessage(), f);
        }
        Set<Integer> failed = group.failedRanks();
        if (!failed.isEmpty()) {
            throw new ProcessFailedException(group.jobId(), failed, "task pool round " + round + " at rank " + group.rank());
        }
    }

    private void serviceFailed(RuntimeException e) {
        if (serviceFailure.compareAndSet(null, e)) {
            LOG.error("task pool of rank {} in job {}: {}", group.rank(), group.jobId(), e.getMessage(), e);
        }
    }

    /**
     * Stops the service threads (waiting briefly for them) and makes further {@link #runRound} calls fail. Does
     * not close the group. Call it after the collective that follows the last round (then no rank still needs
     * this rank's answers), or when abandoning the job. Idempotent; any thread may call it.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        threads.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                LOG.warn("task pool service thread {} did not stop within {} ms", t.getName(), STOP_WAIT_MILLIS);
            }
        }
    }

    @Override
    public String toString() {
        return "TaskPool[" + scheduler + ", rank " + group.rank() + "/" + group.size() + (closed ? ", closed" : "") + "]";
    }
}
