package io.ironloop.runtime.internal.blocks;

import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.internal.state.ByteArraySink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.ToDoubleFunction;

/** Collectives over the blocks of the whole domain whose results do not depend on who owns which block. */
public final class BlockCollectives {
    private BlockCollectives() {
    }

    /** The sum of {@code value} over every block, added in block-id order on every rank. */
    public static <B extends Block> double sum(Domain<B> domain, ToDoubleFunction<? super B> value) {
        ByteBuffer mine = ByteBuffer.allocate(domain.blocks().size() * (Integer.BYTES + Double.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        for (B b : domain.blocks().values()) {
            mine.putInt(b.id()).putDouble(value.applyAsDouble(b));
        }
        double[] byBlock = new double[domain.layout().blockCount()];
        for (byte[] part : domain.group().allgather(mine.array())) {
            ByteBuffer p = ByteBuffer.wrap(part).order(ByteOrder.LITTLE_ENDIAN);
            while (p.hasRemaining()) {
                int id = p.getInt();
                byBlock[id] = p.getDouble();
            }
        }
        double sum = 0;
        for (double v : byBlock) {
            sum += v;
        }
        return sum;
    }

    /**
     * SHA-256 (hex) of every block's snapshot bytes in block-id order, each preceded by its id and length:
     * the same on every rank whoever owns the blocks. Collective; the bytes travel to rank 0.
     */
    public static <B extends Block> String digest(Domain<B> domain) {
        ByteArraySink sink = new ByteArraySink();
        ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        java.io.ByteArrayOutputStream mine = new java.io.ByteArrayOutputStream();
        for (B b : domain.blocks().values()) {
            b.save(sink);
            byte[] bytes = sink.take();
            header.clear();
            header.putInt(b.id()).putLong(bytes.length);
            mine.write(header.array(), 0, 12);
            mine.write(bytes, 0, bytes.length);
        }
        byte[][] all = domain.group().gather(mine.toByteArray(), 0);
        byte[] hex = null;
        if (all != null) {
            byte[][] byBlock = new byte[domain.layout().blockCount()][];
            for (byte[] part : all) {
                ByteBuffer p = ByteBuffer.wrap(part).order(ByteOrder.LITTLE_ENDIAN);
                while (p.hasRemaining()) {
                    int id = p.getInt();
                    int n = Math.toIntExact(p.getLong());
                    byte[] bytes = new byte[n];
                    p.get(bytes);
                    byBlock[id] = bytes;
                }
            }
            MessageDigest sha = sha256();
            ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            for (int id = 0; id < byBlock.length; id++) {
                if (byBlock[id] == null) {
                    throw new IllegalStateException("no rank owns block " + id);
                }
                h.clear();
                h.putInt(id).putLong(byBlock[id].length);
                sha.update(h.array());
                sha.update(byBlock[id]);
            }
            hex = HexFormat.of().formatHex(sha.digest()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
        return new String(domain.group().broadcast(hex, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
