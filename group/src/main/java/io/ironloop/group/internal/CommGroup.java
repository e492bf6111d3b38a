package io.ironloop.group.internal;

import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A {@link ProcessGroup} over a {@link Session}: point-to-point messages and collectives built from
 * them. Reductions combine in rank order, one chunk at a time (small arrays at rank 0, which broadcasts the
 * result; large ones at the owner of each segment, which sends it to everyone), so results are bit-reproducible
 * and memory stays bounded. A group is one incarnation ({@code epoch}) of
 * the job's membership; {@link #shrink()} makes the next one.
 */
final class CommGroup implements ProcessGroup {
    /** Reductions move at most this many bytes per member and message. */
    static final int CHUNK_BYTES = 1 << 20;
    private static final byte OK = 0;
    private static final byte LENGTH_MISMATCH = 1;

    private final Session session;
    private final int epoch;
    private final int[] members;
    /** World ranks this member threw {@link ProcessFailedException} for on a departure notice. */
    private final Set<Integer> blamedOnDeparture = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final int rank;
    /** The large allreduce's shared-memory path between members of one host (or its decision to use messages). */
    private final SharedMemoryAllreduce sharedMemory;
    private long collectiveSeq;
    private long agreementSeq;
    private volatile boolean superseded;
    private volatile boolean closed;

    CommGroup(Session session, int epoch, int[] members, int worldRank) {
        this.session = session;
        this.epoch = epoch;
        this.members = members.clone();
        int r = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                r = i;
            }
        }
        if (r < 0) {
            throw new IllegalArgumentException("world rank " + worldRank + " is not a member of " + Arrays.toString(members));
        }
        this.rank = r;
        this.sharedMemory = new SharedMemoryAllreduce(session.sharedMemoryDirectory(), worldRank, epoch, r, members.length);
    }

    Session session() {
        return session;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return members.length;
    }

    @Override
    public String jobId() {
        return session.jobId();
    }

    @Override
    public int worldRank(int r) {
        Objects.checkIndex(r, members.length);
        return members[r];
    }

    @Override
    public int leader() {
        int lw = session.leaderWorldRank();
        for (int i = 0; i < members.length; i++) {
            if (members[i] == lw) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Integer> failedRanks() {
        return ranksOf(session.failedWorldRanks());
    }

    /** The ranks of this group among {@code failedWorld} (world ranks). */
    private Set<Integer> ranksOf(SortedSet<Integer> failedWorld) {
        if (failedWorld.isEmpty()) {
            return Collections.emptySet();
        }
        TreeSet<Integer> out = new TreeSet<>();
        for (int i = 0; i < members.length; i++) {
            if (failedWorld.contains(members[i])) {
                out.add(i);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private RuntimeException abortCause(String operation) {
        if (closed || session.isClosed()) {
            return new IllegalStateException("the process group of job " + jobId() + " is closed (" + operation + ")");
        }
        if (superseded) {
            return new IllegalStateException("this group was shrunk; use the group returned by shrink() (" + operation + ")");
        }
        RuntimeException excluded = session.exclusion(operation + " at rank " + rank, rank);
        if (excluded != null) {
            return excluded;
        }
        Set<Integer> f = failedRanks();
        return f.isEmpty() ? null : new ProcessFailedException(jobId(), f, operation + " at rank " + rank);
    }

    private void check(String operation) {
        RuntimeException e = abortCause(operation);
        if (e != null) {
            throw e;
        }
    }

    private void post(int dest, Envelope.Kind kind, long tag, byte[] payload) {
        post(dest, kind, tag, ByteBuffer.wrap(payload));
    }

    private void post(int dest, Envelope.Kind kind, long tag, ByteBuffer payload) {
        session.send(members[dest], new Envelope(epoch, kind, tag, members[rank], payload));
    }

    private byte[] take(int source, Envelope.Kind kind, long tag, String operation) {
        return Envelope.array(takeBuffer(source, kind, tag, operation));
    }

    private ByteBuffer takeBuffer(int source, Envelope.Kind kind, long tag, String operation) {
        return session.take(epoch, kind, members[source], tag, () -> {
            RuntimeException e = abortCause(operation);
            SortedSet<Integer> seenFailed = e == null ? session.departed(epoch, members[source]) : null;
            if (seenFailed != null) {
                // its departure notice came after everything it sent: what this waits for will never come
                Set<Integer> failed = ranksOf(seenFailed);
                for (int f : failed.isEmpty() ? Set.of(source) : failed) {
                    blamedOnDeparture.add(members[f]); // passed on in this member's own departure notice
                }
                e = failed.isEmpty()
                        ? new ProcessFailedException(jobId(), Set.of(source), operation + " at rank " + rank + ": rank " + source
                                + " closed the group without taking part (it ended, typically with an exception: see its own output)")
                        // it left because others failed: blame them, not the messenger
                        : new ProcessFailedException(jobId(), failed, operation + " at rank " + rank + ": rank " + source
                                + " closed the group after it saw ranks " + failed + " fail");
            }
            return e;
        });
    }

    private void checkRank(int r, String what) {
        if (r < 0 || r >= members.length) {
            throw new IllegalArgumentException(what + " " + r + " is not a rank of this group of size " + members.length);
        }
    }

    @Override
    public void barrier() {
        check("barrier");
        long seq = ++collectiveSeq;
        gatherBytes(new byte[0], 0, seq, "barrier");
        broadcastBytes(new byte[0], 0, seq, "barrier");
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        checkRank(root, "root");
        check("broadcast");
        if (rank == root) {
            Objects.requireNonNull(data, "data");
        }
        return broadcastBytes(rank == root ? data.clone() : null, root, ++collectiveSeq, "broadcast");
    }

    @Override
    public double[] broadcast(double[] data, int root) {
        byte[] b = broadcast(rank == root ? ArrayCodec.encode(Objects.requireNonNull(data, "data"), 0, data.length) : null, root);
        return ArrayCodec.decodeDoubles(b, 0);
    }

    @Override
    public long[] broadcast(long[] data, int root) {
        byte[] b = broadcast(rank == root ? ArrayCodec.encode(Objects.requireNonNull(data, "data"), 0, data.length) : null, root);
        return ArrayCodec.decodeLongs(b, 0);
    }

    private byte[] broadcastBytes(byte[] data, int root, long seq, String operation) {
        if (rank == root) {
            for (int r = 0; r < members.length; r++) {
                if (r != root) {
                    post(r, Envelope.Kind.COLLECTIVE, seq, data);
                }
            }
            return data;
        }
        return take(root, Envelope.Kind.COLLECTIVE, seq, operation);
    }

    private byte[][] gatherBytes(byte[] data, int root, long seq, String operation) {
        if (rank != root) {
            post(root, Envelope.Kind.COLLECTIVE, seq, data);
            return null;
        }
        byte[][] out = new byte[members.length][];
        for (int r = 0; r < members.length; r++) {
            out[r] = r == root ? data : take(r, Envelope.Kind.COLLECTIVE, seq, operation);
        }
        return out;
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        Objects.requireNonNull(values, "values");
        if (isLarge((long) values.length * Double.BYTES)) {
            double[] out = new double[values.length];
            allreduceLarge(values, out, values.length, Reduction.DOUBLE, op);
            return out;
        }
        return ArrayCodec.decodeDoubles(allreduceBytes(ArrayCodec.encode(values, 0, values.length), Reduction.DOUBLE, op), 0);
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        Objects.requireNonNull(values, "values");
        if (isLarge((long) values.length * Long.BYTES)) {
            long[] out = new long[values.length];
            allreduceLarge(values, out, values.length, Reduction.LONG, op);
            return out;
        }
        return ArrayCodec.decodeLongs(allreduceBytes(ArrayCodec.encode(values, 0, values.length), Reduction.LONG, op), 0);
    }

    @Override
    public int[] allreduce(int[] values, ReduceOp op) {
        Objects.requireNonNull(values, "values");
        if (isLarge((long) values.length * Integer.BYTES)) {
            int[] out = new int[values.length];
            allreduceLarge(values, out, values.length, Reduction.INT, op);
            return out;
        }
        return ArrayCodec.decodeInts(allreduceBytes(ArrayCodec.encode(values, 0, values.length), Reduction.INT, op), 0);
    }

    /** From this many bytes on (and with two members or more), an allreduce takes the bandwidth-optimal path. */
    static final int LARGE_ALLREDUCE_BYTES = 256 << 10;

    private boolean isLarge(long bytes) {
        return members.length > 1 && bytes >= LARGE_ALLREDUCE_BYTES;
    }

    /**
     * A large allreduce of {@code values} into {@code out} (arrays of {@code type}, {@code elements} long): a
     * reduce-scatter then an allgather, both direct. Member s owns segment s of the array (1/P of it): every member
     * sends it its piece of that segment, the owner combines the pieces in rank order ({@code ((v0 op v1) op v2) ...},
     * its own piece read straight from {@code values}) and sends the combined segment to every member. Each member
     * sends and receives 2(P − 1)/P of the array, as a ring would, and the result is the small path's, bit for bit,
     * whatever the timing.
     *
     * <p>Segments travel in chunks of {@link #CHUNK_BYTES} through direct buffers of the transport's pool (written
     * from and received into without a copy in the JVM), software-pipelined rather than in step: at step k a member
     * sends its pieces of chunk k, combines and sends its own chunk k − {@link #PIPELINE} and copies the results of
     * chunk k − 2·{@link #PIPELINE} into {@code out}. Pieces and results have tags of their own, so the chunks of one
     * sender are matched in order within each kind however the steps interleave; what waits in a member's queues
     * stays a few chunks per member. A wait at step k needs only messages sent at step k − {@link #PIPELINE} or earlier
     * (and no send blocks on a receiver's thread), so there is no deadlock, and a failed member raises {@link ProcessFailedException} in the survivors' waits.
     *
     * <p>Between members of one host ({@link SharedMemoryAllreduce#prepare} agreed on it) the same segments are combined in
     * the same order through memory-mapped files instead, with two rounds of empty messages for synchronisation.
     *
     * <p>A member whose array has another length may have taken the small path: a round of the small path with an
     * empty contribution declaring this array's length comes first, so every member learns of a mismatch there and
     * throws, whichever path it took, instead of waiting for messages that never come.
     */
    private void allreduceLarge(Object values, Object out, int elements, Reduction type, ReduceOp op) {
        Objects.requireNonNull(op, "op");
        allreduceBytes(new byte[0], type, op, elements * type.elementSize());
        if (sharedMemory.prepare(this, (long) elements * type.elementSize())) {
            long written = ++collectiveSeq;
            long combined = ++collectiveSeq;
            sharedMemory.allreduce(values, out, elements, type, op, written, combined, new SharedMemoryAllreduce.Signals() {
                @Override
                public void send(int dest, long tag) {
                    post(dest, Envelope.Kind.COLLECTIVE, tag, new byte[0]);
                }

                @Override
                public void await(int source, long tag) {
                    takeBuffer(source, Envelope.Kind.COLLECTIVE, tag, "allreduce");
                }
            });
            return;
        }
        long pieces = ++collectiveSeq;
        long results = ++collectiveSeq;
        int size = members.length;
        int perSegment = (elements + size - 1) / size;
        int chunkElements = CHUNK_BYTES / type.elementSize();
        int chunks = (perSegment + chunkElements - 1) / chunkElements;
        for (int step = 0; step < chunks + 2 * PIPELINE; step++) {
            if (step < chunks) {
                for (int i = 1; i < size; i++) { // owners after this member first, so that not everyone starts with rank 0
                    int s = (rank + i) % size;
                    int from = chunkStart(s, step, perSegment, chunkElements);
                    int n = chunkLength(s, step, perSegment, chunkElements, elements);
                    if (n > 0) {
                        ByteBuffer piece = session.buffers().take(n * type.elementSize());
                        type.put(values, from, piece);
                        post(s, Envelope.Kind.COLLECTIVE, pieces, piece);
                        session.buffers().give(piece); // written before post returned, or copied by the transport
                    }
                }
            }
            int c = step - PIPELINE;
            int n = c < 0 || c >= chunks ? 0 : chunkLength(rank, c, perSegment, chunkElements, elements);
            if (n > 0) {
                int from = chunkStart(rank, c, perSegment, chunkElements);
                reduceInRankOrder(values, out, from, n, type, op, pieces);
                ByteBuffer result = session.buffers().take(n * type.elementSize());
                type.put(out, from, result);
                for (int i = 1; i < size; i++) {
                    post((rank + i) % size, Envelope.Kind.COLLECTIVE, results, result);
                }
                session.buffers().give(result);
            }
            c = step - 2 * PIPELINE;
            for (int i = 1; c >= 0 && c < chunks && i < size; i++) {
                int s = (rank + i) % size;
                int length = chunkLength(s, c, perSegment, chunkElements, elements);
                if (length > 0) {
                    ByteBuffer in = takeChunk(s, results, length * type.elementSize());
                    type.get(in, out, chunkStart(s, c, perSegment, chunkElements));
                    session.buffers().give(in);
                }
            }
        }
    }

    /** The first element of chunk {@code c} of segment {@code s}. */
    private static int chunkStart(int s, int c, int perSegment, int chunkElements) {
        return s * perSegment + c * chunkElements;
    }

    /** The elements of chunk {@code c} of segment {@code s}: possibly none (the last segments may be shorter or empty). */
    static int chunkLength(int s, int c, int perSegment, int chunkElements, int elements) {
        long segmentEnd = Math.min(elements, (long) (s + 1) * perSegment);
        long from = (long) s * perSegment + (long) c * chunkElements;
        return (int) Math.max(0, Math.min(segmentEnd, from + chunkElements) - from);
    }

    /** The next chunk of {@code tag} from {@code source}, which must be {@code bytes} long. */
    private ByteBuffer takeChunk(int source, long tag, int bytes) {
        ByteBuffer in = takeBuffer(source, Envelope.Kind.COLLECTIVE, tag, "allreduce");
        if (in.remaining() != bytes) {
            throw new IllegalStateException("allreduce: rank " + source + " sent " + in.remaining() + " bytes of a chunk of " + bytes
                    + " (a defect: the lengths were checked)");
        }
        return in;
    }

    /**
     * Combines every member's piece of this member's chunk of {@code n} elements from {@code from} in rank order into
     * {@code out} at the same place: rank 0's piece first (received, or copied from {@code values} on rank 0), then
     * each next one, this member's own read from {@code values}, a received one straight from the buffer it arrived in.
     */
    private void reduceInRankOrder(Object values, Object out, int from, int n, Reduction type, ReduceOp op, long tag) {
        if (rank == 0) {
            System.arraycopy(values, from, out, from, n);
        } else {
            ByteBuffer in = takeChunk(0, tag, n * type.elementSize());
            type.get(in, out, from);
            session.buffers().give(in);
        }
        for (int r = 1; r < members.length; r++) {
            if (r == rank) {
                type.combine(out, from, values, from, n, op);
            } else {
                ByteBuffer in = takeChunk(r, tag, n * type.elementSize());
                type.combine(out, from, in, op);
                session.buffers().give(in);
            }
        }
    }

    /**
     * Chunks a member sends ahead of the results it has received, in an allreduce (on the large path: chunk steps
     * between sending a piece, combining it at its owner and taking the result).
     */
    static final int PIPELINE = 4;

    /** Chunk {@code c} of a member's contribution; the first carries the declared total length. */
    private static byte[] contribution(byte[] mine, int declaredLength, int c, int chunkBytes) {
        int from = c * chunkBytes;
        int to = Math.min(mine.length, from + chunkBytes);
        if (c > 0) {
            return Arrays.copyOfRange(mine, from, to);
        }
        return ByteBuffer.allocate(Integer.BYTES + to - from).putInt(declaredLength).put(mine, from, to - from).array();
    }

    /**
     * Reduce-to-rank-0 then broadcast, chunk by chunk: rank 0 combines the members' chunks in rank order, so
     * the result does not depend on timing; members send up to {@link #PIPELINE} chunks ahead. The first
     * contribution of each member carries the total length so rank 0 can reject mismatched arrays on every
     * member.
     */
    private byte[] allreduceBytes(byte[] mine, Reduction type, ReduceOp op) {
        return allreduceBytes(mine, type, op, mine.length);
    }

    /**
     * The small path, whose first contributions carry {@code declaredLength} (the length of the array being reduced)
     * for the length check: {@code mine.length} itself, or, for the large path's opening round, the large array's.
     */
    private byte[] allreduceBytes(byte[] mine, Reduction type, ReduceOp op, int declaredLength) {
        Objects.requireNonNull(op, "op");
        check("allreduce");
        long seq = ++collectiveSeq;
        int chunkBytes = CHUNK_BYTES / type.elementSize() * type.elementSize();
        int chunks = Math.max(1, (mine.length + chunkBytes - 1) / chunkBytes);
        byte[] result = new byte[mine.length];
        for (int c = 0; rank == 0 && c < chunks; c++) {
            int from = c * chunkBytes;
            byte[] piece = Arrays.copyOfRange(mine, from, Math.min(mine.length, from + chunkBytes));
            for (int r = 1; r < members.length; r++) {
                byte[] in = take(r, Envelope.Kind.COLLECTIVE, seq, "allreduce");
                int offset = 0;
                if (c == 0) {
                    int theirs = ByteBuffer.wrap(in).getInt();
                    offset = Integer.BYTES;
                    if (theirs != declaredLength || in.length - offset != piece.length) {
                        String msg = "allreduce arrays differ in length: rank 0 has " + declaredLength / type.elementSize()
                                + " elements, rank " + r + " has " + theirs / type.elementSize();
                        byte[] err = msg.getBytes(StandardCharsets.UTF_8);
                        byte[] out = new byte[1 + err.length];
                        out[0] = LENGTH_MISMATCH;
                        System.arraycopy(err, 0, out, 1, err.length);
                        broadcastBytes(out, 0, seq, "allreduce");
                        throw new IllegalArgumentException(msg);
                    }
                }
                type.combineInto(piece, in, offset, op);
            }
            byte[] out = new byte[1 + piece.length];
            out[0] = OK;
            System.arraycopy(piece, 0, out, 1, piece.length);
            broadcastBytes(out, 0, seq, "allreduce");
            System.arraycopy(piece, 0, result, from, piece.length);
        }
        if (rank != 0) {
            // up to PIPELINE chunks ahead: rank 0 combines chunk c while chunk c+1 travels
            int ahead = Math.min(PIPELINE, chunks);
            for (int c = 0; c < ahead; c++) {
                post(0, Envelope.Kind.COLLECTIVE, seq, contribution(mine, declaredLength, c, chunkBytes));
            }
            for (int c = 0; c < chunks; c++) {
                byte[] in = take(0, Envelope.Kind.COLLECTIVE, seq, "allreduce");
                if (in[0] == LENGTH_MISMATCH) {
                    throw new IllegalArgumentException(new String(in, 1, in.length - 1, StandardCharsets.UTF_8));
                }
                System.arraycopy(in, 1, result, c * chunkBytes, in.length - 1);
                if (c + ahead < chunks) {
                    post(0, Envelope.Kind.COLLECTIVE, seq, contribution(mine, declaredLength, c + ahead, chunkBytes));
                }
            }
        }
        return result;
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        checkRank(root, "root");
        Objects.requireNonNull(data, "data");
        check("gather");
        return gatherBytes(data.clone(), root, ++collectiveSeq, "gather");
    }

    @Override
    public byte[][] allgather(byte[] data) {
        Objects.requireNonNull(data, "data");
        check("allgather");
        long seq = ++collectiveSeq;
        byte[][] parts = gatherBytes(data.clone(), 0, seq, "allgather");
        byte[] packed = null;
        if (rank == 0) {
            int total = Integer.BYTES * (1 + parts.length);
            for (byte[] p : parts) {
                total += p.length;
            }
            ByteBuffer b = ByteBuffer.allocate(total).putInt(parts.length);
            for (byte[] p : parts) {
                b.putInt(p.length);
            }
            for (byte[] p : parts) {
                b.put(p);
            }
            packed = b.array();
        }
        ByteBuffer b = ByteBuffer.wrap(broadcastBytes(packed, 0, seq, "allgather"));
        byte[][] out = new byte[b.getInt()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = new byte[b.getInt()];
        }
        for (byte[] o : out) {
            b.get(o);
        }
        return out;
    }

    @Override
    public void send(int dest, int tag, byte[] data) {
        checkRank(dest, "destination");
        checkTag(tag);
        Objects.requireNonNull(data, "data");
        check("send to rank " + dest);
        post(dest, Envelope.Kind.P2P, tag, data); // transports copy what they keep beyond the call
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        checkRank(dest, "destination");
        checkTag(tag);
        Objects.requireNonNull(data, "data");
        check("send to rank " + dest);
        post(dest, Envelope.Kind.P2P, tag, ArrayCodec.encode(data, 0, data.length));
    }

    @Override
    public byte[] receive(int source, int tag) {
        checkRank(source, "source");
        checkTag(tag);
        check("receive from rank " + source);
        return take(source, Envelope.Kind.P2P, tag, "receive from rank " + source);
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        checkRank(dest, "destination");
        checkTag(tag);
        Objects.requireNonNull(data, "data");
        check("send to rank " + dest);
        post(dest, Envelope.Kind.P2P, tag, data.slice()); // written before this returns, or copied by the transport
    }

    @Override
    public ByteBuffer receiveBuffer(int source, int tag) {
        checkRank(source, "source");
        checkTag(tag);
        check("receive from rank " + source);
        return takeBuffer(source, Envelope.Kind.P2P, tag, "receive from rank " + source);
    }

    @Override
    public void recycle(ByteBuffer buffer) {
        session.buffers().give(buffer);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return ArrayCodec.decodeDoubles(receive(source, tag), 0);
    }

    private static void checkTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("message tags are non-negative, not " + tag);
        }
    }

    @Override
    public long agree(long value) {
        if (closed || session.isClosed()) {
            throw new IllegalStateException("the process group of job " + jobId() + " is closed (agree)");
        }
        return session.agreement().agree(epoch, ++agreementSeq, members, new long[] {value}, Agreement.Op.MIN)[0];
    }

    @Override
    public ShrinkResult shrink() {
        if (closed || session.isClosed()) {
            throw new IllegalStateException("the process group of job " + jobId() + " is closed (shrink)");
        }
        if (superseded) {
            throw new IllegalStateException("this group was already shrunk; shrink the group that shrink() returned");
        }
        long[] mask = new long[(members.length + 63) / 64];
        Set<Integer> alive = session.aliveWorldRanks();
        for (int i = 0; i < members.length; i++) {
            if (alive.contains(members[i])) {
                mask[i / 64] |= 1L << (i % 64);
            }
        }
        long[] agreed = session.agreement().agree(epoch, ++agreementSeq, members, mask, Agreement.Op.AND);
        int[] oldToNew = new int[members.length];
        int[] survivors = new int[members.length];
        int n = 0;
        TreeSet<Integer> gone = new TreeSet<>();
        for (int i = 0; i < members.length; i++) {
            if ((agreed[i / 64] & (1L << (i % 64))) != 0) {
                oldToNew[i] = n;
                survivors[n++] = members[i];
            } else {
                oldToNew[i] = -1;
                gone.add(i);
            }
        }
        if (oldToNew[rank] < 0) {
            throw new ProcessFailedException(jobId(), gone, "this process, rank " + rank + ", was excluded by the survivors");
        }
        superseded = true;
        sharedMemory.close();
        session.discardEpoch(epoch);
        return new ShrinkResult(new CommGroup(session, epoch + 1, Arrays.copyOf(survivors, n), members[rank]), oldToNew);
    }

    /**
     * Leaves the job. Closing is collective: the survivors first agree that all of them are closing, so
     * nobody leaves while another still waits for its messages, then pass a second round once each has marked
     * itself closing, so that no survivor sees another leave before it knows the job is closing: departures
     * after the first round are not reported as failures. Gives up waiting after {@link #CLOSE_WAIT_SECONDS}.
     * First it sends every member a departure notice behind its last message: a member still waiting for a
     * message from this one (this rank ended with an exception while the others are in a collective) throws
     * {@link ProcessFailedException} at once instead of waiting for a message that will never come, and so
     * reaches its own close.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!superseded && !session.isClosed() && !session.isExcluded()) {
            SortedSet<Integer> seen = new TreeSet<>(session.failedWorldRanks());
            seen.addAll(blamedOnDeparture);
            byte[] notice = Session.departureNotice(seen);
            for (int r = 0; r < members.length; r++) {
                if (r != rank) {
                    post(r, Envelope.Kind.COLLECTIVE, Session.DEPARTURE_TAG, notice);
                }
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
            session.prepareToCloseTogether();
            long[] done = session.agreement().agree(epoch, ++agreementSeq, members, new long[] {0}, Agreement.Op.MIN, deadline);
            if (done != null) {
                // Every survivor now knows that all are closing, but one that returns first and leaves at once could be
                // seen leaving by one that has not yet returned, and be reported failed. A second round completes only
                // once every survivor has marked its session closing, so no departure after it is a failure.
                session.closing(false); // whether all leave together is known after the second round
                done = session.agreement().agree(epoch, ++agreementSeq, members, new long[] {0}, Agreement.Op.MIN, deadline);
            }
            if (done == null) {
                org.slf4j.LoggerFactory.getLogger(CommGroup.class).warn("job {} rank {}: not every surviving rank closed the group within {} s; leaving anyway",
                        jobId(), rank, CLOSE_WAIT_SECONDS);
            }
            session.closing(done != null);
        }
        closed = true;
        sharedMemory.close();
        if (!superseded) {
            session.close();
        }
    }

    /** How long {@link #close()} waits for the other survivors to close too. */
    static final int CLOSE_WAIT_SECONDS = 30;

    @Override
    public String toString() {
        return "ProcessGroup[job=" + jobId() + ", epoch=" + epoch + ", rank=" + rank + "/" + members.length + "]";
    }
}
