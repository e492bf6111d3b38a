package io.ironloop.runtime.skeleton;

import io.ironloop.runtime.blocks.BlockLayout;

/**
 * The parts of a skeleton as a block layout in which every part neighbours every other: direction {@code d} of
 * part {@code p} is part {@code (p + d) mod parts} (direction 0, the part itself, is no neighbour), so the block
 * loop's halo exchange can carry any routing plan; parts that exchange nothing at a step send nothing.
 */
record PartLayout(int parts) implements BlockLayout {
    @Override
    public int blockCount() {
        return parts;
    }

    @Override
    public int directions() {
        return parts;
    }

    @Override
    public int neighbour(int block, int direction) {
        return direction == 0 ? -1 : (block + direction) % parts;
    }

    @Override
    public int opposite(int direction) {
        return (parts - direction) % parts;
    }
}
