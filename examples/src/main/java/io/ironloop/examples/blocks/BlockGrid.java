package io.ironloop.examples.blocks;

import io.ironloop.runtime.blocks.Grid2D;
import java.util.Locale;

/**
 * How a rectangular domain is cut into blocks: {@code blocksX × blocksY} blocks of {@code cellsX × cellsY}
 * cells each, every block with a one-cell halo around it.
 *
 * @param blocksX blocks along x, at least 1
 * @param blocksY blocks along y, at least 1; at most 2^20 blocks in all
 * @param cellsX cells of a block along x, at least 1
 * @param cellsY cells of a block along y, at least 1; a block with its halo has at most 2^22 cells
 */
public record BlockGrid(int blocksX, int blocksY, int cellsX, int cellsY) {
    /** The most blocks of a grid. */
    public static final int MAX_BLOCKS = 1 << 20;
    /** The most cells of one block with its halo, so that a block's arrays (nine per cell for D2Q9) stay well under 2^31. */
    public static final int MAX_BLOCK_CELLS = 1 << 22;

    /**
     * Checks the sizes.
     *
     * @throws IllegalArgumentException naming the sizes, if a rule is broken
     */
    public BlockGrid {
        if (blocksX < 1 || blocksY < 1 || (long) blocksX * blocksY > MAX_BLOCKS) {
            throw new IllegalArgumentException("blocks must be at least 1 x 1 and at most 2^20 in all, not " + blocksX + " x " + blocksY);
        }
        if (cellsX < 1 || cellsY < 1 || (long) (cellsX + 2) * (cellsY + 2) > MAX_BLOCK_CELLS) {
            throw new IllegalArgumentException("cells per block must be at least 1 x 1 and, with a one-cell halo, at most 2^22, not "
                    + cellsX + " x " + cellsY);
        }
        if ((long) blocksX * cellsX > Integer.MAX_VALUE || (long) blocksY * cellsY > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a domain of " + blocksX + " x " + blocksY + " blocks of " + cellsX + " x " + cellsY
                    + " cells has more than 2^31 - 1 cells along an axis");
        }
    }

    /** Cells of the domain along x. */
    public int totalX() {
        return blocksX * cellsX;
    }

    /** Cells of the domain along y. */
    public int totalY() {
        return blocksY * cellsY;
    }

    /** The layout of the blocks, periodic in x or not (never in y). */
    public Grid2D layout(boolean periodicX) {
        return new Grid2D(blocksX, blocksY, periodicX, false);
    }

    /** E.g. {@code 512 x 512 cells in 8 x 8 blocks of 64 x 64}. */
    public String describe() {
        return String.format(Locale.ROOT, "%d x %d cells in %d x %d blocks of %d x %d", totalX(), totalY(), blocksX, blocksY, cellsX, cellsY);
    }
}
