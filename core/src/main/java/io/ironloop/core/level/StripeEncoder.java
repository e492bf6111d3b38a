package io.ironloop.core.level;

import io.ironloop.BufferPool;
import io.ironloop.IronloopException;
import io.ironloop.format.CorruptCheckpointException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One member's part of encoding its group's parity at one write ({@link ErasureLevel}): a pipeline of chunks, each
 * member at once a data member (its {@link #sendSegments} thread) and the encoder of one codeword ({@link #encodeShares}).
 *
 * <p><b>Who sends what.</b> Codeword r has its parity shares on positions r, r+1, …, r+m−1 (share i on r+i) and its
 * data on the k other positions. Each data member sends its segment of codeword r to position r only, the codeword's
 * <i>encoder</i>, which computes all m parity rows and forwards rows 1..m−1 to their holders. So a member sends its
 * snapshot once (k segments of S bytes) plus m−1 shares of S bytes, (1 + (m−1)/k) × its snapshot instead of m × when
 * every parity holder received every segment: RS(2, 2) moves 1.5 × instead of 2 ×, RS(4, 2) 1.25 × instead of 2 ×;
 * XOR (m = 1) is unchanged. Every member encodes one codeword, so no member encodes for the group.
 *
 * <p><b>Pipeline and bounded memory.</b> Everything moves in chunks of the segment ({@code chunk} bytes at the same
 * offset of every segment, in order): a data member sends chunk c of each of its segments, then chunk c + 1; an encoder
 * receives chunk c from its k data members, multiplies and adds it into its m rows while it is in cache, keeps row 0
 * and forwards the others; a holder stores the forwarded chunk. Credits bound what waits in any queue: a data member
 * sends chunk c to an encoder only after the encoder finished chunk c − {@value #WINDOW}, and an encoder forwards chunk
 * c to a holder only after the holder stored chunk c − {@value #WINDOW}; so a member buffers at most {@value #WINDOW}
 * chunks per peer, whatever the snapshot's size. Sending runs on the level's sender thread, receiving, encoding and
 * forwarding on the writing thread.
 *
 * <p><b>Checks.</b> Each segment's CRC32C follows its last chunk and each forwarded share's CRC32C (with the encoder's
 * verdict on the segments it was made from) its last chunk, so a segment or share damaged on the way never becomes a
 * parity share: the receiver throws {@link CorruptCheckpointException}. Credits are sent for every chunk even when
 * this member fails half-way, so its peers' pipelines drain.
 */
final class StripeEncoder {
    /** Chunks a sender may be ahead of its receiver (16 were no faster for RS and slower for XOR, under load). */
    static final int WINDOW = 4;
    private static final int TAG_SHARE = ErasureLevel.TAG_SHARE;
    private static final int TAG_DATA_CREDIT = ErasureLevel.TAG_DATA_CREDIT;
    private static final int TAG_SHARE_CREDIT = ErasureLevel.TAG_SHARE_CREDIT;

    private final PeerLink peers;
    private final ErasureLevel.Group group;
    private final int p;
    private final int n;
    private final int k;
    private final int m;
    private final int chunk;
    private final int chunks;

    StripeEncoder(PeerLink peers, ErasureLevel.Group group, int position, int chunk) {
        this.peers = peers;
        this.group = group;
        this.p = position;
        this.n = group.size();
        this.k = group.code.dataShards();
        this.m = group.code.parityShards();
        this.chunk = (int) Math.min(chunk, group.segment);
        this.chunks = (group.segment + this.chunk - 1) / this.chunk;
    }

    /** The codeword whose segment t this member's stream gives (its encoder's position). */
    private int codewordOfSegment(int t) {
        return Math.floorMod(p - m - t, n);
    }

    /** The position of the member whose segment t goes into this member's codeword (codeword p). */
    private int dataMember(int t) {
        return (p + m + t) % n;
    }

    /** Bytes of chunk {@code c} of segment {@code t} that the stream of position {@code q} holds (the rest is padding). */
    private int present(int q, int t, int c) {
        long off = (long) t * group.segment + (long) c * chunk;
        int len = Math.min(chunk, group.segment - c * chunk);
        return (int) Math.max(0, Math.min(len, group.lengths[q] - off));
    }

    /**
     * This member's k segments, chunk by chunk, each to its codeword's encoder, straight from the images; then each
     * segment's CRC32C. Runs on the level's sender thread.
     */
    void sendSegments(StripeLayout mine) {
        CRC32C[] crcs = newCrcs(k);
        for (int c = 0; c < chunks; c++) {
            for (int t = 0; t < k; t++) {
                int encoder = group.ranks[codewordOfSegment(t)];
                if (c >= WINDOW) {
                    takeCredit(encoder, TAG_DATA_CREDIT, c - WINDOW);
                }
                long from = (long) t * group.segment + (long) c * chunk;
                long to = Math.min(mine.length(), from + Math.min(chunk, group.segment - c * chunk));
                if (from >= to) {
                    continue;
                }
                List<ByteBuffer> pieces = mine.pieces(from, to, chunk);
                for (ByteBuffer piece : pieces) {
                    crcs[t].update(piece.duplicate()); // just before the send reads it: one pass through the cache
                    peers.send(encoder, ErasureLevel.TAG_SEGMENT + codewordOfSegment(t), piece);
                }
            }
        }
        for (int t = 0; t < k; t++) {
            // the segment's CRC32C last, so that a segment damaged on the way never goes into a parity share
            peers.send(group.ranks[codewordOfSegment(t)], ErasureLevel.TAG_SEGMENT + codewordOfSegment(t), intMessage((int) crcs[t].getValue()));
        }
        for (int t = 0; t < k; t++) {
            for (int c = Math.max(0, chunks - WINDOW); c < chunks; c++) {
                takeCredit(group.ranks[codewordOfSegment(t)], TAG_DATA_CREDIT, c);
            }
        }
    }

    /**
     * Fills {@code shares} (m buffers of a segment each: share i of codeword p − i) and their CRC32Cs: encodes codeword p
     * from its data members' chunks, keeps row 0, forwards rows 1..m−1, and stores the rows the encoders of codewords
     * p − 1 … p − m + 1 forward here.
     *
     * @throws CorruptCheckpointException if a segment or a forwarded share fails its CRC32C on arrival (after the
     *     exchange completed, so the next write starts clean)
     */
    void encodeShares(ByteBuffer[] shares, int[] shareCrcs, BufferPool pool) {
        byte[][] rows = new byte[m][chunk];
        byte[] in = new byte[chunk];
        ByteBuffer[] out = new ByteBuffer[m];
        CRC32C[] rowCrcs = newCrcs(m);
        CRC32C[] storedCrcs = newCrcs(m);
        CRC32C[] arrived = newCrcs(k);
        int credited = 0;
        try {
            for (int c = 0; c < chunks; c++) {
                int off = c * chunk;
                int len = Math.min(chunk, group.segment - off);
                for (byte[] row : rows) {
                    Arrays.fill(row, 0, len, (byte) 0);
                }
                for (int t = 0; t < k; t++) { // each arrived chunk into every row while it is in cache
                    int q = dataMember(t);
                    int expected = present(q, t, c);
                    ErasureLevel.receiveInto(peers, group.ranks[q], ErasureLevel.TAG_SEGMENT + p, in, 0, expected);
                    arrived[t].update(in, 0, expected);
                    int blocks = (expected + ErasureCode.BLOCK - 1) / ErasureCode.BLOCK * ErasureCode.BLOCK; // the padding is zeros
                    Arrays.fill(in, expected, blocks, (byte) 0);
                    for (int i = 0; i < m; i++) {
                        ErasureCode.multiplyAdd(group.code.coefficient(i, t), in, 0, rows[i], 0, blocks);
                    }
                }
                for (int i = 0; i < m; i++) {
                    rowCrcs[i].update(rows[i], 0, len);
                }
                shares[0].put(off, rows[0], 0, len);
                for (int i = 1; i < m; i++) {
                    int holder = group.ranks[(p + i) % n];
                    if (c >= WINDOW) {
                        takeCredit(holder, TAG_SHARE_CREDIT, c - WINDOW);
                    }
                    if (out[i] == null) {
                        out[i] = pool.take(chunk);
                    }
                    peers.send(holder, TAG_SHARE, out[i].clear().put(rows[i], 0, len).flip());
                }
                for (int i = 1; i < m; i++) {
                    int encoder = group.ranks[Math.floorMod(p - i, n)];
                    receiveShare(encoder, shares[i], off, len);
                    storedCrcs[i].update(shares[i].slice(off, len));
                    sendCredit(encoder, TAG_SHARE_CREDIT, c);
                }
                for (int t = 0; t < k; t++) {
                    sendCredit(group.ranks[dataMember(t)], TAG_DATA_CREDIT, c);
                }
                credited = c + 1;
            }
            CorruptCheckpointException damaged = checkSegments(arrived);
            for (int i = 1; i < m; i++) { // the encoder's verdict with each forwarded share's CRC32C
                ByteBuffer verdict = ByteBuffer.allocate(2 * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN)
                        .putInt((int) rowCrcs[i].getValue()).putInt(damaged == null ? 0 : 1).flip();
                peers.send(group.ranks[(p + i) % n], TAG_SHARE, verdict);
            }
            shareCrcs[0] = (int) rowCrcs[0].getValue();
            for (int i = 1; i < m; i++) {
                CorruptCheckpointException e = checkForwarded(i, storedCrcs[i]);
                damaged = damaged == null ? e : damaged;
                shareCrcs[i] = (int) storedCrcs[i].getValue();
                for (int c = Math.max(0, chunks - WINDOW); c < chunks; c++) {
                    takeCredit(group.ranks[(p + i) % n], TAG_SHARE_CREDIT, c);
                }
            }
            if (damaged != null) {
                throw damaged;
            }
        } catch (RuntimeException e) {
            try {
                for (int c = credited; c < chunks; c++) { // failed half-way: the peers' pipelines still drain
                    for (int t = 0; t < k; t++) {
                        sendCredit(group.ranks[dataMember(t)], TAG_DATA_CREDIT, c);
                    }
                    for (int i = 1; i < m; i++) {
                        sendCredit(group.ranks[Math.floorMod(p - i, n)], TAG_SHARE_CREDIT, c);
                    }
                }
            } catch (RuntimeException x) { // a peer gone: the group's failure is already on its way
                e.addSuppressed(x);
            }
            throw e;
        } finally {
            for (ByteBuffer b : out) {
                pool.give(b);
            }
        }
    }

    /** Each data member's CRC32C of its segment against the one computed on arrival: the first mismatch, or null. */
    private CorruptCheckpointException checkSegments(CRC32C[] arrived) {
        CorruptCheckpointException damaged = null;
        for (int t = 0; t < k; t++) {
            int q = dataMember(t);
            int sent = receiveInt(group.ranks[q], ErasureLevel.TAG_SEGMENT + p);
            if (sent != (int) arrived[t].getValue() && damaged == null) {
                damaged = new CorruptCheckpointException("segment " + t + " of codeword " + p + " from world rank " + group.world[q], 0,
                        String.format("fails its CRC32C on arrival: sent %08x, received %08x", sent, (int) arrived[t].getValue()));
            }
        }
        return damaged;
    }

    /** Forwarded share i, checked against its encoder's CRC32C and verdict: null when intact. */
    private CorruptCheckpointException checkForwarded(int i, CRC32C stored) {
        int codeword = Math.floorMod(p - i, n);
        ByteBuffer verdict = peers.receive(group.ranks[codeword], TAG_SHARE).order(ByteOrder.LITTLE_ENDIAN);
        int sent = verdict.getInt(verdict.position());
        boolean segmentsDamaged = verdict.getInt(verdict.position() + Integer.BYTES) != 0;
        peers.recycle(verdict);
        String what = "parity share " + i + " of codeword " + codeword + " from world rank " + group.world[codeword];
        if (segmentsDamaged) {
            return new CorruptCheckpointException(what, 0, "was made from a segment that failed its CRC32C on arrival at its encoder");
        }
        if (sent != (int) stored.getValue()) {
            return new CorruptCheckpointException(what, 0, String.format("fails its CRC32C on arrival: sent %08x, received %08x", sent,
                    (int) stored.getValue()));
        }
        return null;
    }

    /** Receives forwarded-share messages from {@code source} until they filled {@code [at, at + bytes)} of {@code into}. */
    private void receiveShare(int source, ByteBuffer into, int at, int bytes) {
        int filled = 0;
        while (filled < bytes) {
            ByteBuffer b = peers.receive(source, TAG_SHARE);
            int len = b.remaining();
            if (len > bytes - filled) {
                peers.recycle(b);
                throw new IronloopException("rank " + source + " forwarded " + (filled + len) + " bytes of a share chunk of " + bytes
                        + " bytes: its segment size and this rank's disagree");
            }
            into.put(at + filled, b, b.position(), len);
            filled += len;
            peers.recycle(b);
        }
    }

    private static CRC32C[] newCrcs(int count) {
        CRC32C[] crcs = new CRC32C[count];
        Arrays.setAll(crcs, x -> new CRC32C());
        return crcs;
    }

    private void sendCredit(int dest, int tag, int c) {
        peers.send(dest, tag, intMessage(c));
    }

    private void takeCredit(int source, int tag, int c) {
        int got = receiveInt(source, tag);
        if (got != c) {
            throw new IllegalStateException("rank " + source + " credited chunk " + got + " where chunk " + c + " was due: the erasure"
                    + " pipeline is out of step");
        }
    }

    private int receiveInt(int source, int tag) {
        ByteBuffer b = peers.receive(source, tag).order(ByteOrder.LITTLE_ENDIAN);
        int v = b.getInt(b.position());
        peers.recycle(b);
        return v;
    }

    private static ByteBuffer intMessage(int v) {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, v);
    }
}
