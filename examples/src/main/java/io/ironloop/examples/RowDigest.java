package io.ironloop.examples;

import io.ironloop.group.ProcessGroup;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code result sha256=} of a result held in pieces by the ranks: each piece is whole rows of one global row-major
 * array, keyed by its first row. The digest is {@link ResultDigest} over every row in global order, so it depends on
 * the values only, never on how the rows are split among parts or ranks: a program on the loop skeleton and its
 * hand-written twin with another split print the same line.
 */
public final class RowDigest {
    private RowDigest() {
    }

    /**
     * The digest of every rank's pieces. Collective: every rank of {@code group} calls it; each gets the same hex.
     *
     * @param mine this rank's pieces, first row → values (whole rows, row-major); pieces must not share a first row
     * @throws IllegalStateException if two ranks hold a piece with the same first row
     * @throws io.ironloop.group.ProcessFailedException if a rank fails meanwhile (not recovered: a relaunch resumes
     *     from the last disk line and digests again)
     */
    public static String of(ProcessGroup group, Map<Integer, double[]> mine) {
        int bytes = Integer.BYTES;
        for (double[] v : mine.values()) {
            bytes += 2 * Integer.BYTES + v.length * Double.BYTES;
        }
        ByteBuffer out = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(mine.size());
        mine.forEach((row, v) -> {
            out.putInt(row).putInt(v.length);
            out.asDoubleBuffer().put(v);
            out.position(out.position() + v.length * Double.BYTES);
        });
        SortedMap<Integer, double[]> all = new TreeMap<>();
        for (byte[] from : group.allgather(out.array())) {
            ByteBuffer in = ByteBuffer.wrap(from).order(ByteOrder.LITTLE_ENDIAN);
            for (int n = in.getInt(); n > 0; n--) {
                int row = in.getInt();
                double[] v = new double[in.getInt()];
                in.asDoubleBuffer().get(v);
                in.position(in.position() + v.length * Double.BYTES);
                if (all.put(row, v) != null) {
                    throw new IllegalStateException("two pieces of the result start at row " + row);
                }
            }
        }
        ResultDigest digest = new ResultDigest();
        all.values().forEach(digest::putDoubles);
        return digest.hex();
    }
}
