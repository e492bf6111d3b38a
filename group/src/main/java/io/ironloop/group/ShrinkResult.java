package io.ironloop.group;

import java.util.Arrays;

/**
 * The outcome of {@link ProcessGroup#shrink()}: the group of survivors, with ranks renumbered in the old
 * order, and the mapping from old ranks to new ones.
 *
 * @param group the new group (this process is a member)
 * @param oldToNew for each rank of the old group, its rank in the new group, or -1 if it failed
 */
public record ShrinkResult(ProcessGroup group, int[] oldToNew) {
    public ShrinkResult {
        oldToNew = oldToNew.clone();
    }

    /** The rank in the new group of {@code oldRank}, or -1 if that process failed. */
    public int newRank(int oldRank) {
        return oldToNew[oldRank];
    }

    /** A copy of the old-to-new mapping. */
    @Override
    public int[] oldToNew() {
        return oldToNew.clone();
    }

    @Override
    public String toString() {
        return "ShrinkResult[size=" + group.size() + ", oldToNew=" + Arrays.toString(oldToNew) + "]";
    }
}
