package io.ironloop.group;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A fixed set of processes ("ranks") of one job that exchange messages and run collectives, in the
 * spirit of an MPI communicator with ULFM fault tolerance.
 *
 * <p><b>Usage.</b> Every member calls the same collectives in the same order (as in MPI). Point-to-point
 * messages between a pair of ranks with the same tag are received in the order they were sent.
 * Floating-point reductions combine values in rank order at rank 0 and broadcast the result, so results
 * are bit-for-bit identical from run to run whatever the timing.
 *
 * <p><b>Failures.</b> When any member fails, the group is <em>revoked</em>: every survivor's pending and
 * next operation (except {@link #agree(long)}, {@link #shrink()} and {@link #close()}) throws a
 * {@link ProcessFailedException} naming the failed ranks. {@link #shrink()} then yields a new group of
 * the survivors. The leader may fail like anyone else; another member takes over.
 *
 * <p><b>Threading.</b> A group is used by one application thread at a time, except {@link #failedRanks()},
 * {@link #leader()} and {@link #close()}, which any thread may call, and point-to-point messages, which
 * other threads may send and receive meanwhile on tags of their own (a background copy of a snapshot
 * beside the application's halo exchange).
 */
public interface ProcessGroup extends AutoCloseable {

    /** This process's rank, 0 ≤ rank &lt; size. */
    int rank();

    /** The number of members. */
    int size();

    /** The job id (also the JGroups cluster name), shared by every member. */
    String jobId();

    /** The world rank (the rank before any shrink) of {@code rank}. */
    int worldRank(int rank);

    /** The rank of the current leader (lowest surviving rank of the underlying membership), or -1 if unknown. */
    int leader();

    /** Ranks of this group known to have failed; empty while the group is healthy. */
    Set<Integer> failedRanks();

    /**
     * Returns when every member has called it.
     *
     * @throws ProcessFailedException if a member failed before or during the barrier
     */
    void barrier();

    /**
     * Sends {@code data} of {@code root} to every member.
     *
     * @param data the data at the root (ignored elsewhere, may be null there)
     * @return the root's data, on every member (a copy on the root)
     * @throws ProcessFailedException if a member failed
     */
    byte[] broadcast(byte[] data, int root);

    /** {@link #broadcast(byte[], int)} for doubles. */
    double[] broadcast(double[] data, int root);

    /** {@link #broadcast(byte[], int)} for longs. */
    long[] broadcast(long[] data, int root);

    /**
     * Element-wise reduction of equally long arrays of every member, result on every member. Combines in
     * rank order, so the result is bit-reproducible.
     *
     * @return a new array with the result
     * @throws IllegalArgumentException if the members' arrays differ in length (on every member)
     * @throws ProcessFailedException if a member failed
     */
    double[] allreduce(double[] values, ReduceOp op);

    /** {@link #allreduce(double[], ReduceOp)} for longs. */
    long[] allreduce(long[] values, ReduceOp op);

    /** {@link #allreduce(double[], ReduceOp)} for ints. */
    int[] allreduce(int[] values, ReduceOp op);

    /** {@link #allreduce(double[], ReduceOp)} for one double. */
    default double allreduce(double value, ReduceOp op) {
        return allreduce(new double[] {value}, op)[0];
    }

    /** {@link #allreduce(double[], ReduceOp)} for one long. */
    default long allreduce(long value, ReduceOp op) {
        return allreduce(new long[] {value}, op)[0];
    }

    /** {@link #allreduce(double[], ReduceOp)} for one int. */
    default int allreduce(int value, ReduceOp op) {
        return allreduce(new int[] {value}, op)[0];
    }

    /**
     * Collects every member's data on {@code root}, indexed by rank.
     *
     * @return on the root, one array per rank; elsewhere null
     * @throws ProcessFailedException if a member failed
     */
    byte[][] gather(byte[] data, int root);

    /**
     * Collects every member's data on every member, indexed by rank.
     *
     * @throws ProcessFailedException if a member failed
     */
    byte[][] allgather(byte[] data);

    /**
     * Sends a copy of {@code data} to {@code dest}; returns without waiting for the receiver.
     *
     * @param tag a non-negative message tag; receive matches on (source, tag)
     * @throws ProcessFailedException if a member failed
     */
    void send(int dest, int tag, byte[] data);

    /** {@link #send(int, int, byte[])} for doubles. */
    void send(int dest, int tag, double[] data);

    /**
     * Waits for the next message from {@code source} with {@code tag}.
     *
     * @throws ProcessFailedException if a member failed before or while waiting
     */
    byte[] receive(int source, int tag);

    /** {@link #receive(int, int)} for doubles. */
    double[] receiveDoubles(int source, int tag);

    /**
     * Sends the bytes of {@code data} from its position to its limit to {@code dest} (its position is left
     * alone), for bulk data: a direct buffer goes from its memory to the direct data connection without a copy
     * in this process. Returns once {@code data} may be changed again (the bytes are on their way or copied).
     * The receiver may take the message with {@link #receive} or {@link #receiveBuffer}.
     *
     * @param tag a non-negative message tag; receive matches on (source, tag)
     * @throws ProcessFailedException if a member failed
     */
    default void send(int dest, int tag, ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        send(dest, tag, copy);
    }

    /**
     * Waits for the next message from {@code source} with {@code tag} and returns it as a buffer (position 0,
     * limit its length): a direct one from this group's pool when it was sent as a direct buffer over a direct
     * data connection. Give it to {@link #recycle} when done with it, so the next bulk message reuses it.
     *
     * @throws ProcessFailedException if a member failed before or while waiting
     */
    default ByteBuffer receiveBuffer(int source, int tag) {
        return ByteBuffer.wrap(receive(source, tag));
    }

    /**
     * Gives a buffer that {@link #receiveBuffer} returned back to this group's pool; the caller keeps no
     * reference to it (a later message may be received into it). Heap buffers are ignored.
     */
    default void recycle(ByteBuffer buffer) {
    }

    /**
     * Sends to {@code dest} and receives from {@code source} with the same tag (a halo exchange step),
     * without deadlock whatever the pairing.
     */
    default byte[] sendrecv(byte[] data, int dest, int source, int tag) {
        send(dest, tag, data);
        return receive(source, tag);
    }

    /** {@link #sendrecv(byte[], int, int, int)} for doubles. */
    default double[] sendrecv(double[] data, int dest, int source, int tag) {
        send(dest, tag, data);
        return receiveDoubles(source, tag);
    }

    /**
     * Fault-tolerant agreement: returns the minimum of the values proposed by the participating members,
     * the same value on every surviving member, even if members (including the leader coordinating the
     * agreement) fail during the call. Works on a revoked group and never throws
     * {@link ProcessFailedException}; failures can be read from {@link #failedRanks()} afterwards.
     *
     * @throws IllegalStateException if this process has been excluded from the group or the group is closed
     */
    long agree(long value);

    /**
     * Agrees with the other survivors on who is alive and returns the group of survivors (ranks renumbered
     * in the old order) with the old→new mapping. Collective over the survivors; works on a revoked group.
     *
     * @throws ProcessFailedException if this process itself was excluded by the others
     */
    ShrinkResult shrink();

    /**
     * Leaves the job (on the newest group of a shrink chain; a shrunk group is only released). Collective:
     * waits (up to 30 s) until every surviving member closes too, so nobody leaves while another still
     * expects its messages, and these departures are not reported as failures. A member still waiting for
     * a message from this one (this one ended early, e.g. with an exception) throws
     * {@link ProcessFailedException} at once and so closes too. Afterwards operations throw
     * {@link IllegalStateException}.
     */
    @Override
    void close();
}
