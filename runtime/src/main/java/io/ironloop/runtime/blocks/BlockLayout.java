package io.ironloop.runtime.blocks;

/**
 * The blocks of a domain and who neighbours whom: fixed for a run, the same on every rank. Ownership is
 * not part of the layout (the loop assigns blocks to ranks and moves them after failures).
 */
public interface BlockLayout {
    /** The number of blocks; ids are {@code 0 … blockCount() - 1}. */
    int blockCount();

    /** The number of neighbour directions. */
    int directions();

    /** The neighbour of {@code block} in {@code direction}, or -1 when there is none (a domain boundary). */
    int neighbour(int block, int direction);

    /** The direction that points back: the neighbour in {@code direction} sees this block in {@code opposite(direction)}. */
    int opposite(int direction);
}
