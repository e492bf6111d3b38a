package io.ironloop.cli;

import io.ironloop.format.ElementType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes one array as a NumPy {@code .npy} file (format version 1.0, or 2.0 when the header would exceed
 * 65535 bytes), following the NumPy format specification: the magic {@code \x93NUMPY}, major and minor
 * version bytes, a little-endian header length, an ASCII Python dict literal ({@code descr},
 * {@code fortran_order}, {@code shape}) padded with spaces and a newline so the data starts at a multiple of
 * 64 bytes, then the raw little-endian elements in C order. Ironloop's element types map to
 * {@code |b1 |i1 <i2 <u2 <i4 <f4 <i8 <f8}; {@code OPAQUE} bytes become {@code |u1}.
 */
final class NpyWriter {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final int ALIGNMENT = 64;

    private NpyWriter() {
    }

    /** The NumPy dtype string of {@code type}. */
    static String descr(ElementType type) {
        return switch (type) {
            case BOOLEAN -> "|b1";
            case BYTE -> "|i1";
            case SHORT -> "<i2";
            case CHAR -> "<u2";
            case INT -> "<i4";
            case FLOAT -> "<f4";
            case LONG -> "<i8";
            case DOUBLE -> "<f8";
            case OPAQUE -> "|u1";
        };
    }

    /** The header bytes (magic through padding) for an array of {@code type} and {@code shape}. */
    static byte[] header(ElementType type, long[] shape) {
        StringBuilder tuple = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            tuple.append(i == 0 ? "" : ", ").append(shape[i]);
        }
        tuple.append(shape.length == 1 ? ",)" : ")");
        String dict = "{'descr': '" + descr(type) + "', 'fortran_order': False, 'shape': " + tuple + ", }";
        byte[] v1 = header(dict, 1);
        return v1 != null ? v1 : header(dict, 2);
    }

    /** The header in format {@code major}.0, or null when its length does not fit version 1's two bytes. */
    private static byte[] header(String dict, int major) {
        int prefix = MAGIC.length + 2 + (major == 1 ? 2 : 4);
        int unpadded = prefix + dict.length() + 1;
        int padded = (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        String text = dict + " ".repeat(padded - unpadded) + "\n";
        if (major == 1 && text.length() > 0xFFFF) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(prefix + text.length()).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).put((byte) major).put((byte) 0);
        if (major == 1) {
            b.putShort((short) text.length());
        } else {
            b.putInt(text.length());
        }
        return b.put(text.getBytes(StandardCharsets.US_ASCII)).array();
    }

    /** Writes an array's elements into an open {@code .npy} file. */
    @FunctionalInterface
    interface Elements {
        /**
         * Writes the little-endian elements in C order at {@code dataStart} and on (positional writes).
         *
         * @param dataStart where the data begins: the header's length
         */
        void writeTo(FileChannel file, long dataStart) throws IOException;
    }

    /**
     * Writes a new file: the header, then whatever {@code elements} writes after it. When {@code elements}
     * fails, the partly written file is removed, so no truncated array is left behind.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code file} exists (which is then left alone)
     */
    static void write(Path file, ElementType type, long[] shape, Elements elements) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (ch) {
            byte[] h = header(type, shape);
            writeFully(ch, 0, ByteBuffer.wrap(h));
            elements.writeTo(ch, h.length);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Writes all of {@code b}'s remaining bytes at {@code position}. */
    static void writeFully(FileChannel ch, long position, ByteBuffer b) throws IOException {
        long at = position;
        while (b.hasRemaining()) {
            at += ch.write(b, at);
        }
    }
}
