package io.ironloop.runtime.blocks;

/** {@link BlockLayout#allToAll}: every block neighbours every other. */
record AllToAll(int parts) implements BlockLayout {
    AllToAll {
        if (parts < 1) {
            throw new IllegalArgumentException("an all-to-all layout needs at least one block, not " + parts);
        }
    }

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
