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

    /**
     * {@code parts} blocks of which every one neighbours every other: direction {@code d} of block {@code b} is block
     * {@code (b + d) mod parts} (direction 0, the block itself, is no neighbour), so a halo exchange can carry any
     * pattern; blocks that exchange nothing at a step send nothing. A skeleton's parts, or any domain whose blocks
     * all talk to each other.
     *
     * @throws IllegalArgumentException if {@code parts} is less than 1
     */
    static BlockLayout allToAll(int parts) {
        return new AllToAll(parts);
    }
}
