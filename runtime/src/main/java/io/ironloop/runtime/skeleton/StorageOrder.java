package io.ironloop.runtime.skeleton;

/**
 * How an N-dimensional domain lies in its one-dimensional array: {@link #C} (row-major, the last dimension
 * varies fastest) or {@link #FORTRAN} (column-major, the first dimension varies fastest).
 */
public enum StorageOrder {
    /** Row-major: the last dimension is contiguous. */
    C,
    /** Column-major: the first dimension is contiguous. */
    FORTRAN;

    /** The element strides of a dense array of {@code extents} in this order. */
    long[] strides(int[] extents) {
        int n = extents.length;
        long[] s = new long[n];
        long stride = 1;
        for (int k = 0; k < n; k++) {
            int d = this == C ? n - 1 - k : k;
            s[d] = stride;
            stride *= extents[d];
        }
        return s;
    }

    /** The contiguous (fastest) dimension among {@code dims}. */
    int fastest(int dims) {
        return this == C ? dims - 1 : 0;
    }
}
