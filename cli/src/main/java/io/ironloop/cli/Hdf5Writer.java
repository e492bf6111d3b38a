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
     * @param data the elements' little-endian bytes (remaining bytes; left unchanged)
     * @param attributes string attributes to put on the dataset
     * @throws IllegalArgumentException if jHDF cannot write the shape (see {@link #writable})
     */
    static void write(Path file, String dataset, ElementType type, long[] shape, ByteBuffer data, Map<String, String> attributes) {
        if (!writable(shape)) {
            throw new IllegalArgumentException("jHDF cannot write a dataset of shape " + java.util.Arrays.toString(shape));
        }
        Object flat = flatArray(type, data.duplicate().order(ByteOrder.LITTLE_ENDIAN));
        Object shaped = shape.length == 0 ? Array.get(flat, 0) : shape.length == 1 ? flat : reshape(flat, shape);
        boolean unsigned = type == ElementType.BOOLEAN || type == ElementType.CHAR || type == ElementType.OPAQUE;
        DatasetCreationOptions options = unsigned ? DatasetCreationOptions.builder().unsigned().build() : DatasetCreationOptions.DEFAULT;
        try (WritableHdfFile hdf = HdfFile.write(file)) {
            WritableDataset ds = hdf.putDataset(dataset, shaped, options);
            attributes.forEach(ds::putAttribute);
        }
    }

    /** The elements as a flat Java array of the type jHDF writes for {@code type}. */
    static Object flatArray(ElementType type, ByteBuffer b) {
        int n = b.remaining() / type.width();
        switch (type) {
            case BOOLEAN, BYTE, OPAQUE: {
                byte[] a = new byte[n];
                b.get(a);
                return a;
            }
            case SHORT, CHAR: {
                short[] a = new short[n];
                b.asShortBuffer().get(a);
                return a;
            }
            case INT: {
                int[] a = new int[n];
                b.asIntBuffer().get(a);
                return a;
            }
            case LONG: {
                long[] a = new long[n];
                b.asLongBuffer().get(a);
                return a;
            }
            case FLOAT: {
                float[] a = new float[n];
                b.asFloatBuffer().get(a);
                return a;
            }
            case DOUBLE: {
                double[] a = new double[n];
                b.asDoubleBuffer().get(a);
                return a;
            }
            default:
                throw new IllegalArgumentException("no HDF5 mapping for " + type);
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
