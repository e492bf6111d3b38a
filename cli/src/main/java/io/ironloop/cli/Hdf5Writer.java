package io.ironloop.cli;

import io.ironloop.format.ElementType;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableDataset;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes one array as an HDF5 file with one dataset, through jHDF 0.13's pure-Java writer.
 *
 * <p>jHDF writes Java {@code byte}, {@code short}, {@code int}, {@code long} (signed, or unsigned when
 * asked), {@code float}, {@code double}, {@code String} and {@code boolean} (as an HDF5 bit field, which
 * NumPy-based readers do not map). Ironloop's element types therefore become: BOOLEAN → uint8 (0 or 1),
 * BYTE → int8, SHORT → int16, CHAR → uint16 (the UTF-16 code unit), INT → int32, LONG → int64, FLOAT →
 * float32, DOUBLE → float64, OPAQUE → uint8. All are little-endian. Multi-dimensional shapes become
 * multi-dimensional datasets in C order; an empty shape becomes a scalar dataset. Each dataset carries string
 * attributes {@code ironloop_entry}, {@code ironloop_type} and {@code ironloop_scope} (plus any given).
 * jHDF cannot write datasets with zero elements, nor dimensions above 2^31-1.
 */
final class Hdf5Writer {
    private Hdf5Writer() {
    }

    /** Whether jHDF can write an array of this shape. */
    static boolean writable(long[] shape) {
        for (long d : shape) {
            if (d < 1 || d > Integer.MAX_VALUE) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes {@code file} (which must not exist) with one dataset called {@code dataset}.
     *
     * @param flat the elements as the flat Java array {@link #flatArray(ElementType, int)} made
     * @param attributes string attributes to put on the dataset
     * @throws IllegalArgumentException if jHDF cannot write the shape (see {@link #writable})
     */
    static void write(Path file, String dataset, ElementType type, long[] shape, Object flat, Map<String, String> attributes) {
        if (!writable(shape)) {
            throw new IllegalArgumentException("jHDF cannot write a dataset of shape " + java.util.Arrays.toString(shape));
        }
        Object shaped = shape.length == 0 ? Array.get(flat, 0) : shape.length == 1 ? flat : reshape(flat, shape);
        boolean unsigned = type == ElementType.BOOLEAN || type == ElementType.CHAR || type == ElementType.OPAQUE;
        DatasetCreationOptions options = unsigned ? DatasetCreationOptions.builder().unsigned().build() : DatasetCreationOptions.DEFAULT;
        try (WritableHdfFile hdf = HdfFile.write(file)) {
            WritableDataset ds = hdf.putDataset(dataset, shaped, options);
            attributes.forEach(ds::putAttribute);
        }
    }

    /** A flat Java array of {@code n} elements of the type jHDF writes for {@code type}. */
    static Object flatArray(ElementType type, int n) {
        return switch (type) {
            case BOOLEAN, BYTE, OPAQUE -> new byte[n];
            case SHORT, CHAR -> new short[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    /**
     * Copies little-endian element bytes (a whole number of elements) into {@code flat}, a
     * {@link #flatArray(ElementType, int)} of {@code type}, from byte offset {@code byteOffset} of the array on.
     */
    static void copy(ElementType type, ByteBuffer bytes, Object flat, long byteOffset) {
        ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) (byteOffset / type.width());
        int n = b.remaining() / type.width();
        switch (type) {
            case BOOLEAN, BYTE, OPAQUE -> b.get((byte[]) flat, at, n);
            case SHORT, CHAR -> b.asShortBuffer().get((short[]) flat, at, n);
            case INT -> b.asIntBuffer().get((int[]) flat, at, n);
            case LONG -> b.asLongBuffer().get((long[]) flat, at, n);
            case FLOAT -> b.asFloatBuffer().get((float[]) flat, at, n);
            case DOUBLE -> b.asDoubleBuffer().get((double[]) flat, at, n);
        }
    }

    /** A nested Java array of {@code shape} (rank >= 2) filled from {@code flat} in C order. */
    static Object reshape(Object flat, long[] shape) {
        int[] dims = new int[shape.length];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = (int) shape[i];
        }
        Object nested = Array.newInstance(flat.getClass().getComponentType(), dims);
        fill(nested, 0, dims, flat, new int[] {0});
        return nested;
    }

    private static void fill(Object nested, int depth, int[] dims, Object flat, int[] offset) {
        if (depth == dims.length - 1) {
            System.arraycopy(flat, offset[0], nested, 0, dims[depth]);
            offset[0] += dims[depth];
            return;
        }
        for (int i = 0; i < dims[depth]; i++) {
            fill(Array.get(nested, i), depth + 1, dims, flat, offset);
        }
    }
}
