package io.ironloop.runtime.internal.blocks;

import io.ironloop.runtime.blocks.Balancer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which world rank owns which block, which ranks compute (<em>active</em>, in slot order) and which idle
 * (<em>spares</em>). Immutable; every rank derives the same one from the same inputs (Algorithm 4 of the
 * waLBerla paper, generalised: spares first adopt whole lost ranks, the balancer spreads what is left).
 */
public final class Ownership {
    private final int[] ownerWorld;
    private final List<Integer> actives;
    private final List<Integer> spares;

    private Ownership(int[] ownerWorld, List<Integer> actives, List<Integer> spares) {
        this.ownerWorld = ownerWorld;
        this.actives = List.copyOf(actives);
        this.spares = List.copyOf(spares);
    }

    /** World ranks {@code 0 … size-spares-1} compute, the last {@code spares} idle. */
    public static Ownership initial(int blockCount, int size, int spares, Balancer balancer) {
        int active = size - spares;
        if (active < 1) {
            throw new IllegalArgumentException("a job of " + size + " ranks with " + spares + " spares has no rank to compute");
        }
        List<Integer> actives = new ArrayList<>();
        List<Integer> idle = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            (r < active ? actives : idle).add(r);
        }
        int[] slot = checked(balancer.assign(blockCount, null, active), blockCount, active);
        int[] owner = new int[blockCount];
        for (int b = 0; b < blockCount; b++) {
            owner[b] = actives.get(slot[b]);
        }
        return new Ownership(owner, actives, idle);
    }

    private static int[] checked(int[] slot, int blockCount, int ranks) {
        if (slot == null || slot.length != blockCount) {
            throw new IllegalStateException("the balancer returned " + (slot == null ? "null" : slot.length + " owners") + " for "
                    + blockCount + " blocks");
        }
        for (int s : slot) {
            if (s < 0 || s >= ranks) {
                throw new IllegalStateException("the balancer assigned a block to rank index " + s + " of " + ranks);
            }
        }
        return slot;
    }

    /**
     * The ownership after {@code lost} world ranks are gone: each lost active rank is replaced, in world-rank
     * order, by the lowest surviving spare, which adopts exactly its blocks; the blocks of lost ranks no spare
     * replaced are spread by {@code balancer} over the remaining active ranks.
     *
     * @throws IllegalStateException when no active rank is left
     */
    public Change afterLoss(Set<Integer> lost, Balancer balancer) {
        List<Integer> spareLeft = new ArrayList<>(spares);
        spareLeft.removeAll(lost);
        List<Integer> nextActives = new ArrayList<>(actives);
        int[] owner = ownerWorld.clone();
        int used = 0;
        for (int w : new TreeSet<>(lost)) {
            int slot = nextActives.indexOf(w);
            if (slot < 0 || spareLeft.isEmpty()) {
                continue;
            }
            int spare = spareLeft.remove(0);
            nextActives.set(slot, spare);
            for (int b = 0; b < owner.length; b++) {
                if (owner[b] == w) {
                    owner[b] = spare;
                }
            }
            used++;
        }
        nextActives.removeAll(lost);
        if (nextActives.isEmpty()) {
            throw new IllegalStateException("every computing rank is lost: " + new TreeSet<>(lost));
        }
        int[] previous = new int[owner.length];
        boolean moved = false;
        for (int b = 0; b < owner.length; b++) {
            previous[b] = nextActives.indexOf(owner[b]);
            moved |= previous[b] < 0;
        }
        if (moved) {
            int[] slot = checked(balancer.assign(owner.length, previous, nextActives.size()), owner.length, nextActives.size());
            for (int b = 0; b < owner.length; b++) {
                owner[b] = nextActives.get(slot[b]);
            }
        }
        return new Change(new Ownership(owner, nextActives, spareLeft), used);
    }

    /** The world rank that owns {@code block}. */
    public int ownerOf(int block) {
        return ownerWorld[block];
    }

    /** The blocks {@code worldRank} owns, ascending. */
    public List<Integer> blocksOf(int worldRank) {
        List<Integer> out = new ArrayList<>();
        for (int b = 0; b < ownerWorld.length; b++) {
            if (ownerWorld[b] == worldRank) {
                out.add(b);
            }
        }
        return out;
    }

    public int blockCount() {
        return ownerWorld.length;
    }

    /** The computing world ranks, in slot order. */
    public List<Integer> actives() {
        return actives;
    }

    /** The idle spare world ranks. */
    public List<Integer> spares() {
        return spares;
    }

    @Override
    public String toString() {
        return "Ownership[actives=" + actives + ", spares=" + spares + ", owners=" + Arrays.toString(ownerWorld) + "]";
    }

    /**
     * An ownership after a loss.
     *
     * @param next the new ownership
     * @param sparesUsed how many spares adopted a lost rank's blocks
     */
    public record Change(Ownership next, int sparesUsed) {
    }
}
