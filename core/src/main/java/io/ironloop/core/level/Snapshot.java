package io.ironloop.core.level;

import java.util.List;
import java.util.Objects;

/**
 * One rank's snapshot at one iteration: the images of the blocks it owns, plus the loop's own state as
 * the image of block {@link #LOOP_STATE}. What every {@link Level} writes, keeps and gives back.
 *
 * @param ownerWorldRank the world rank (rank at launch) that took the snapshot
 * @param iteration the iteration the snapshot resumes at
 * @param images the images, in block-id order
 */
public record Snapshot(int ownerWorldRank, long iteration, List<BlockImage> images) {
    /** The id of the image holding a loop's own state (its iteration and registered globals); never a block's id. */
    public static final long LOOP_STATE = -1;

    public Snapshot {
        images = List.copyOf(images);
        Objects.checkIndex(ownerWorldRank, Integer.MAX_VALUE);
    }

    /** Total bytes of the images. */
    public long bytes() {
        long n = 0;
        for (BlockImage i : images) {
            n += i.length();
        }
        return n;
    }
}
