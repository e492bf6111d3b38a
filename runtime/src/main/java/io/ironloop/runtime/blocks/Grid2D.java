package io.ironloop.runtime.blocks;

/**
 * Blocks on a {@code blocksX × blocksY} grid, id {@code y * blocksX + x}, with eight neighbour directions
 * ({@link #EAST}, {@link #WEST}, {@link #NORTH}, {@link #SOUTH} and the four corners), each axis optionally
 * periodic. North is +y.
 */
public final class Grid2D implements BlockLayout {
    public static final int EAST = 0;
    public static final int WEST = 1;
    public static final int NORTH = 2;
    public static final int SOUTH = 3;
    public static final int NORTH_EAST = 4;
    public static final int SOUTH_WEST = 5;
    public static final int NORTH_WEST = 6;
    public static final int SOUTH_EAST = 7;
    private static final int[] DX = {1, -1, 0, 0, 1, -1, -1, 1};
    private static final int[] DY = {0, 0, 1, -1, 1, -1, 1, -1};

    private final int blocksX;
    private final int blocksY;
    private final boolean periodicX;
    private final boolean periodicY;

    public Grid2D(int blocksX, int blocksY, boolean periodicX, boolean periodicY) {
        if (blocksX < 1 || blocksY < 1 || (long) blocksX * blocksY > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a grid needs at least 1 × 1 blocks and fewer than 2^31, not " + blocksX + " × " + blocksY);
        }
        this.blocksX = blocksX;
        this.blocksY = blocksY;
        this.periodicX = periodicX;
        this.periodicY = periodicY;
    }

    public int blocksX() {
        return blocksX;
    }

    public int blocksY() {
        return blocksY;
    }

    /** The x index of {@code block}. */
    public int x(int block) {
        return block % blocksX;
    }

    /** The y index of {@code block}. */
    public int y(int block) {
        return block / blocksX;
    }

    /** The x step of {@code direction} (-1, 0 or 1). */
    public static int dx(int direction) {
        return DX[direction];
    }

    /** The y step of {@code direction} (-1, 0 or 1). */
    public static int dy(int direction) {
        return DY[direction];
    }

    @Override
    public int blockCount() {
        return blocksX * blocksY;
    }

    @Override
    public int directions() {
        return DX.length;
    }

    @Override
    public int neighbour(int block, int direction) {
        int x = x(block) + DX[direction];
        int y = y(block) + DY[direction];
        if (x < 0 || x >= blocksX) {
            if (!periodicX) {
                return -1;
            }
            x = Math.floorMod(x, blocksX);
        }
        if (y < 0 || y >= blocksY) {
            if (!periodicY) {
                return -1;
            }
            y = Math.floorMod(y, blocksY);
        }
        return y * blocksX + x;
    }

    @Override
    public int opposite(int direction) {
        return direction ^ 1;
    }
}
