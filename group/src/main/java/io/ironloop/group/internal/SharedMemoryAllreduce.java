package io.ironloop.group.internal;

import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ReduceOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The large allreduce between the members of one group that share a host, through memory-mapped files instead of
 * TCP (what Open MPI's {@code vader} transport does): every member copies its array into its own file once (but for
 * its own segment, which only it reads, from its array), the owner
 * of each segment combines the segment in rank order straight from the others' files and writes the result into its
 * file, and every member copies the results out. Small messages on the group's ordinary channel say when a file is
 * ready, so waits, failures and revocation behave exactly as in the message path: a member that dies mid-collective
 * makes the survivors' waits throw {@link io.ironloop.group.ProcessFailedException}, and nothing is read from a file
 * before its owner said it was written (a file stays readable after its owner died).
 *
 * <p><b>File layout</b> (one file per member and group, little-endian, readable by its owner's user only; named
 * {@code ironloop-<pid>-<nonce>.shm}):
 * <pre>
 * offset  size  field
 *  0       8    magic "ILSHM001"
 *  8       8    nonce (random, also in the file's name)
 *  16      4    owner's world rank
 *  20      4    group epoch
 *  24      8    input bytes I
 *  32      8    result bytes R
 *  40     24    zero
 *  64      I    input area: the owner's array in element order (its own segment not written: only it reads that)
 *  64+I    R    result area: the owner's combined segment
 * </pre>
 *
 * <p><b>Reuse without overwriting what others still read.</b> A member rewrites its input area only after every other
 * member told it that it has combined (so nobody reads the previous input any more), and its result area only after
 * every other member told it that it wrote its input for the current allreduce (which it does only after copying out
 * every result of the previous one).
 *
 * <p><b>Which path.</b> On the first large allreduce of a group, and when an array no longer fits, the members create
 * files, exchange their names (an allgather) and map each other's; if any member cannot map any other's (another host,
 * no shared directory, a full file system) or has shared memory off, they agree (an allreduce of MIN) to use messages
 * for this group from then on. A member with shared memory off takes part in that round too, so the decision is the
 * same on every member whatever each one's configuration.
 * Each file is unlinked as soon as every member has mapped it, so a crash leaves nothing behind; files of dead
 * processes left by a crash during that exchange are removed by the next process that creates one.
 *
 * <p>Not thread-safe: called on the group's collective thread only, like the other collectives.
 */
final class SharedMemoryAllreduce {
    private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryAllreduce.class);
    private static final byte[] MAGIC = "ILSHM001".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_BYTES = 64;
    private static final int NONCE = 8;
    private static final int OWNER = 16;
    private static final int EPOCH = 20;
    private static final int INPUT_BYTES = 24;
    private static final int RESULT_BYTES = 32;
    /** Input areas grow in steps of this many bytes. */
    private static final long GRANULE = 1 << 20;
    /** Larger arrays take the message path: one mapping must stay below 2 GiB. */
    static final long MAX_BYTES = 1L << 30;
    /** Elements combined per block: the owner's partial result of a block stays in cache while every piece is added. */
    private static final int BLOCK_BYTES = 64 << 10;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The job's data is for its own ranks, which run as one user: no other user may read a file ({@code rw-------}). */
    private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

    /** Sends an empty signal and waits for one: the group's messages on its collective channel. */
    interface Signals {
        void send(int dest, long tag);

        void await(int source, long tag);
    }

    private final Path directory;
    private final int worldRank;
    private final int epoch;
    private final int rank;
    private final int size;
    /** Every member's mapping, this member's own read-write; null until {@link #prepare}. */
    private ByteBuffer[] files;
    private long inputBytes;
    private boolean messagesOnly;

    /**
     * @param directory where the files go ({@code /dev/shm}), or null: shared memory is off at this member (the group
     *     then uses messages, decided together on its first large allreduce)
     */
    SharedMemoryAllreduce(Path directory, int worldRank, int epoch, int rank, int size) {
        this.directory = directory;
        this.worldRank = worldRank;
        this.epoch = epoch;
        this.rank = rank;
        this.size = size;
        this.messagesOnly = size < 2;
    }

    /**
     * Whether an allreduce of {@code bytes} goes through shared memory; sets the files up first if they are missing or
     * too small. Collective: every member calls it at the same allreduce with the same {@code bytes} (lengths were
     * checked before), and all get the same answer.
     *
     * @throws io.ironloop.group.ProcessFailedException if a member fails during the set-up
     */
    boolean prepare(ProcessGroup group, long bytes) {
        if (messagesOnly || bytes > MAX_BYTES) {
            return false;
        }
        if (files != null && bytes <= inputBytes) {
            return true;
        }
        long input = (bytes + GRANULE - 1) / GRANULE * GRANULE;
        long result = (input / size + Long.BYTES - 1) / Long.BYTES * Long.BYTES + Long.BYTES; // a segment, rounded up
        String problem = null;
        Path mine = null;
        ByteBuffer own = null;
        if (directory == null) { // it still takes part: the others must learn that this member uses messages
            problem = "shared memory is off at rank " + rank;
        } else {
            try {
                mine = create(input, result);
                own = map(mine, FileChannel.MapMode.READ_WRITE);
            } catch (IOException | RuntimeException e) {
                problem = "cannot create " + (mine == null ? "a file in " + directory : mine) + ": " + e;
            }
        }
        try {
            byte[][] names = group.allgather(problem == null ? mine.getFileName().toString().getBytes(StandardCharsets.UTF_8) : new byte[0]);
            ByteBuffer[] mapped = new ByteBuffer[size];
            mapped[rank] = own;
            for (int r = 0; r < size && problem == null; r++) {
                if (r != rank) {
                    problem = names[r].length == 0 ? "rank " + r + " could not create its file"
                            : open(r, group.worldRank(r), new String(names[r], StandardCharsets.UTF_8), input, result, mapped);
                }
            }
            boolean shared = group.allreduce(problem == null ? 1 : 0, ReduceOp.MIN) == 1;
            if (!shared) {
                messagesOnly = true;
                files = null;
                if (directory != null) {
                    LOG.info("group epoch {}: large allreduces go through messages, not shared memory ({})", epoch,
                            problem == null ? "another member could not map every file, or has shared memory off" : problem);
                }
                return false;
            }
            files = mapped;
            inputBytes = input;
            return true;
        } finally {
            delete(mine); // every member has mapped it, or nobody will
        }
    }

    /** Maps rank {@code r}'s (world rank {@code world}) file {@code name} into {@code mapped}; null, or what is wrong with it. */
    private String open(int r, int world, String name, long input, long result, ByteBuffer[] mapped) {
        Path p = directory.resolve(name);
        try {
            ByteBuffer b = map(p, FileChannel.MapMode.READ_ONLY);
            long nonce = nonceOf(name);
            if (!b.slice(0, MAGIC.length).equals(ByteBuffer.wrap(MAGIC)) || b.getLong(NONCE) != nonce || b.getInt(OWNER) != world
                    || b.getInt(EPOCH) != epoch
                    || b.getLong(INPUT_BYTES) != input || b.getLong(RESULT_BYTES) != result) {
                return p + " is not rank " + r + "'s file of this allreduce (another host's file of the same name?)";
            }
            mapped[r] = b;
            return null;
        } catch (IOException | RuntimeException e) {
            return "cannot map rank " + r + "'s " + p + " (another host?): " + e;
        }
    }

    /** Creates this member's file, filled (so that a full file system fails here, not as a fault on a mapped page). */
    private Path create(long input, long result) throws IOException {
        sweepDeadProcessFiles();
        long nonce = RANDOM.nextLong() & Long.MAX_VALUE;
        Path p = directory.resolve("ironloop-" + ProcessHandle.current().pid() + "-" + Long.toHexString(nonce) + ".shm");
        try (FileChannel ch = FileChannel.open(p, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            header.put(MAGIC).putLong(NONCE, nonce).putInt(OWNER, worldRank).putInt(EPOCH, epoch).putLong(INPUT_BYTES, input)
                    .putLong(RESULT_BYTES, result).clear();
            ch.write(header);
            ByteBuffer zeros = ByteBuffer.allocateDirect((int) GRANULE);
            for (long left = input + result; left > 0; left -= zeros.limit()) {
                zeros.clear().limit((int) Math.min(GRANULE, left));
                while (zeros.hasRemaining()) {
                    ch.write(zeros);
                }
            }
        } catch (IOException | RuntimeException e) {
            delete(p);
            throw e;
        }
        return p;
    }

    private static long nonceOf(String name) {
        return Long.parseUnsignedLong(name.substring(name.lastIndexOf('-') + 1, name.length() - ".shm".length()), 16);
    }

    private static ByteBuffer map(Path p, FileChannel.MapMode mode) throws IOException {
        try (FileChannel ch = mode == FileChannel.MapMode.READ_ONLY ? FileChannel.open(p, StandardOpenOption.READ)
                : FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer b = ch.map(mode, 0, ch.size()); // stays valid after the channel closes and the file is unlinked
            return b.order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * Removes this directory's files of processes that no longer run (a crash between creating and unlinking one); on
     * every creation, which is rare (a group's first large allreduce, a larger array), so that survivors who make new
     * files after a shrink also remove those of the rank that died while making its own.
     */
    private void sweepDeadProcessFiles() {
        try (DirectoryStream<Path> stray = Files.newDirectoryStream(directory, "ironloop-*.shm")) {
            for (Path p : stray) {
                String[] parts = p.getFileName().toString().split("-");
                try {
                    long pid = Long.parseLong(parts[1]);
                    if (ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true)) {
                        delete(p);
                    }
                } catch (RuntimeException notOurs) {
                    // another naming: leave it alone
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {} for stray shared-memory files: {}", directory, e.toString());
        }
    }

    private static void delete(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot delete the shared-memory file {}: {}; remove it by hand", p, e.toString());
        }
    }

    /**
     * The allreduce of {@code elements} elements of {@code values} into {@code out} (arrays of {@code type}) through the
     * files {@link #prepare} set up: segment s (the same split as the message path) is owned by member s and combined
     * in rank order, {@code ((v0 op v1) op v2) ...}, so the result is the message path's, bit for bit. {@code written}
     * and {@code combined} are two tags of this allreduce.
     */
    void allreduce(Object values, Object out, int elements, Reduction type, ReduceOp op, long written, long combined, Signals signals) {
        int e = type.elementSize();
        int perSegment = (elements + size - 1) / size;
        ByteBuffer own = files[rank];
        int from = Math.min(elements, rank * perSegment);
        int n = CommGroup.chunkLength(rank, 0, perSegment, perSegment, elements);
        type.put(values, 0, own.slice(HEADER_BYTES, from * e)); // all but this member's own segment, which only it reads
        type.put(values, from + n, own.slice(HEADER_BYTES + (from + n) * e, (elements - from - n) * e));
        signalOthers(signals, written);
        for (int i = 1; i < size; i++) {
            signals.await((rank + i) % size, written);
        }
        int block = BLOCK_BYTES / e;
        for (int b = 0; b < n; b += block) {
            int at = from + b;
            int len = Math.min(block, n - b);
            if (rank == 0) {
                System.arraycopy(values, at, out, at, len);
            } else {
                type.get(input(0, at, len, e), out, at);
            }
            for (int r = 1; r < size; r++) {
                if (r == rank) {
                    type.combine(out, at, values, at, len, op);
                } else {
                    type.combine(out, at, input(r, at, len, e), op);
                }
            }
            type.put(out, at, own.slice(resultArea() + b * e, len * e));
        }
        signalOthers(signals, combined);
        for (int i = 1; i < size; i++) {
            int s = (rank + i) % size;
            signals.await(s, combined);
            int length = CommGroup.chunkLength(s, 0, perSegment, perSegment, elements);
            if (length > 0) {
                type.get(files[s].slice(resultArea(), length * e), out, s * perSegment);
            }
        }
    }

    private ByteBuffer input(int r, int element, int length, int elementSize) {
        return files[r].slice(HEADER_BYTES + element * elementSize, length * elementSize);
    }

    private int resultArea() {
        return (int) (HEADER_BYTES + inputBytes);
    }

    private void signalOthers(Signals signals, long tag) {
        for (int i = 1; i < size; i++) {
            signals.send((rank + i) % size, tag);
        }
    }

    /** Forgets the mappings (the files are unlinked already; the memory goes with the last mapping). */
    void close() {
        files = null;
        messagesOnly = true;
    }
}
