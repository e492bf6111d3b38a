package io.ironloop.examples.fwi;

/**
 * Index arithmetic of the computational grid: the physical grid, surrounded by the sponge layer,
 * surrounded by a two-cell halo of zeros that lets the 4th-order stencil run without bounds checks.
 *
 * <p>Model arrays cover the physical grid only, row by row ({@code iz * nx + ix}). Field arrays
 * cover the whole computational grid ({@link #cells()} entries). The model is extended into the
 * sponge by replicating the nearest edge cell ({@link #extend}); the gradient is brought back by the
 * exact adjoint of that replication, summing each sponge cell into its edge cell ({@link #fold}).
 */
final class Grid {
    /** Halo width in cells on each side; the stencil reaches two cells. */
    static final int HALO = 2;

    private final int nx;
    private final int nz;
    private final int sponge;
    private final int stride;
    private final int rows;

    Grid(int nx, int nz, int sponge) {
        this.nx = nx;
        this.nz = nz;
        this.sponge = sponge;
        this.stride = nx + 2 * sponge + 2 * HALO;
        this.rows = nz + 2 * sponge + 2 * HALO;
    }

    /** Physical cells along x. */
    int nx() {
        return nx;
    }

    /** Physical cells along z. */
    int nz() {
        return nz;
    }

    /** Distance in array entries between vertically adjacent field cells. */
    int stride() {
        return stride;
    }

    /** Length of a field array. */
    int cells() {
        return stride * rows;
    }

    /** First and one-past-last row of field cells that are updated (everything but the halo). */
    int firstRow() {
        return HALO;
    }

    int endRow() {
        return rows - HALO;
    }

    /** First and one-past-last column of updated field cells. */
    int firstColumn() {
        return HALO;
    }

    int endColumn() {
        return stride - HALO;
    }

    /** Field index of physical cell (ix, iz). */
    int field(int ix, int iz) {
        return (iz + sponge + HALO) * stride + ix + sponge + HALO;
    }

    /** Distance (cells) from a field row or column to the physical grid, 0 inside it. */
    int depthIntoSponge(int column, int row) {
        int x = column - HALO - sponge;
        int z = row - HALO - sponge;
        int dx = x < 0 ? -x : Math.max(0, x - (nx - 1));
        int dz = z < 0 ? -z : Math.max(0, z - (nz - 1));
        return Math.max(dx, dz);
    }

    /** Sponge width in cells. */
    int sponge() {
        return sponge;
    }

    /** Physical model index of the edge cell that field cell (column, row) replicates. */
    int modelIndexOf(int column, int row) {
        int x = Math.min(nx - 1, Math.max(0, column - HALO - sponge));
        int z = Math.min(nz - 1, Math.max(0, row - HALO - sponge));
        return z * nx + x;
    }

    /** Writes {@code model} into the updated cells of {@code field}, replicated into the sponge. */
    void extend(double[] model, double[] field) {
        for (int row = firstRow(); row < endRow(); row++) {
            for (int col = firstColumn(); col < endColumn(); col++) {
                field[row * stride + col] = model[modelIndexOf(col, row)];
            }
        }
    }

    /** Adjoint of {@link #extend}: {@code model} becomes the sum of the field cells mapped to it. */
    void fold(double[] field, double[] model) {
        java.util.Arrays.fill(model, 0.0);
        for (int row = firstRow(); row < endRow(); row++) {
            for (int col = firstColumn(); col < endColumn(); col++) {
                model[modelIndexOf(col, row)] += field[row * stride + col];
            }
        }
    }
}
