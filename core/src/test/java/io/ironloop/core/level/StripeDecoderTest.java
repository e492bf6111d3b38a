package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decoder's streams are longs and parts: a rebuilt stream over 2 GiB is cut into parts, so these tests cut small
 * streams into parts far smaller than their images and check that every image comes back whole across part ends.
 */
class StripeDecoderTest {
    private static final long ITERATION = 12;

    private static Snapshot snapshotOf(int rank, int... lengths) {
        Random random = new Random(rank * 101L + 7);
        List<BlockImage> images = new ArrayList<>();
        for (int b = 0; b < lengths.length; b++) {
            byte[] bytes = new byte[lengths[b]];
            random.nextBytes(bytes);
            images.add(BlockImage.of(rank * 10L + b, bytes));
        }
        return new Snapshot(rank, ITERATION, images);
    }

    @Test
    void decode_rs22_streamsInPartsSmallerThanTheirImages_everyImageRebuiltAcrossPartEnds() {
        ErasureCode code = ErasureCode.cauchy(2, 2);
        int n = 4;
        List<StripeLayout> streams = new ArrayList<>();
        for (int q = 0; q < n; q++) {
            streams.add(new StripeLayout(snapshotOf(q, 1000 + q, 777, 1531 - q)));
        }
        long[] lengths = streams.stream().mapToLong(StripeLayout::length).toArray();
        long longest = java.util.Arrays.stream(lengths).max().orElseThrow();
        int segment = (int) ((longest + 1) / 2 + ErasureCode.BLOCK - 1) / ErasureCode.BLOCK * ErasureCode.BLOCK;
        // codeword r: data column t from position (r + m + t) mod n, parity i on position (r + i) mod n
        byte[][][] symbols = new byte[n][n][];
        for (int r = 0; r < n; r++) {
            byte[][] data = new byte[2][];
            for (int t = 0; t < 2; t++) {
                int q = (r + 2 + t) % n;
                data[t] = StripeDecoder.dataSymbol(streams.get(q), t, segment);
                symbols[q][r] = data[t];
            }
            byte[][] parity = {new byte[segment], new byte[segment]};
            code.encode(data, parity, 0, segment);
            symbols[r][r] = parity[0];
            symbols[(r + 1) % n][r] = parity[1];
        }
        Set<Integer> lost = Set.of(0, 2);
        int part = 97; // a prime: parts end inside the header, inside images and between them

        Optional<Map<Integer, RebuiltStream>> decoded = StripeDecoder.decode(code, segment, lengths, lost,
                (q, r) -> symbols[q][r], part);

        assertThat(decoded).isPresent();
        for (int x : lost) {
            RebuiltStream rebuilt = decoded.get().get(x);
            assertThat(rebuilt.length()).isEqualTo(lengths[x]);
            Snapshot s = StripeDecoder.verified(rebuilt, "test"); // header CRC32C and every image's CRC32C
            Snapshot original = snapshotOf(x, 1000 + x, 777, 1531 - x);
            assertThat(s.ownerWorldRank()).isEqualTo(x);
            assertThat(s.images()).hasSameSizeAs(original.images());
            for (int i = 0; i < s.images().size(); i++) {
                assertThat(s.images().get(i).bytes()).isEqualTo(original.images().get(i).bytes());
            }
        }
    }

    @Test
    void rebuiltStream_putAndSliceAcrossPartEnds_sameBytesAsOneBuffer() {
        byte[] bytes = new byte[1000];
        new Random(3).nextBytes(bytes);
        RebuiltStream stream = new RebuiltStream(bytes.length, 64);
        stream.put(0, bytes, 0, 500);
        stream.put(500, bytes, 500, 500);

        assertThat(stream.slice(10, 40)).isEqualTo(ByteBuffer.wrap(bytes, 10, 40)); // inside one part: a view
        assertThat(stream.slice(60, 300)).isEqualTo(ByteBuffer.wrap(bytes, 60, 300)); // across five part ends: a copy
        assertThat(stream.slice(990, 10)).isEqualTo(ByteBuffer.wrap(bytes, 990, 10)); // the short last part
        assertThat(stream.slice(1000, 0).remaining()).isZero(); // an empty image at the very end
        assertThatThrownBy(() -> stream.slice(995, 10)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> stream.put(999, bytes, 0, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void rebuiltStream_over2GiB_takesWholeParts_noIntOverflow() {
        // the boundary without allocating it: a stream of 2 GiB + 1 byte (once an ArithmeticException) takes three parts
        long over = (long) Integer.MAX_VALUE + 2;
        assertThat(RebuiltStream.partCount(over, RebuiltStream.PART)).isEqualTo(3);
        assertThat(RebuiltStream.partCount(2L * RebuiltStream.PART, RebuiltStream.PART)).isEqualTo(2);
        assertThat(RebuiltStream.partCount(5L << 30, RebuiltStream.PART)).isEqualTo(5);
        assertThat(RebuiltStream.partCount(0, RebuiltStream.PART)).isZero();
    }
}
