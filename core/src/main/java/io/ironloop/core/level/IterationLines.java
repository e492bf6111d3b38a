package io.ironloop.core.level;

import io.ironloop.core.LineInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One iteration's committed lines under these settings: which line holds each block, each rank's line and parity. */
record IterationLines(Map<Long, LineInfo> blocks, Map<Integer, LineInfo> ranks, Map<Integer, ParityRecord> parity) {
    IterationLines() {
        this(new HashMap<>(), new HashMap<>(), new HashMap<>());
    }

    /**
     * The blocks of the ranks whose lines are missing that the parity of their groups can rebuild: by world rank,
     * for each group that lost at least one and at most its parity shares' worth of members' lines.
     */
    Map<Integer, ParityRecord> rebuildable() {
        return ParityRecord.rebuildable(parity.values(), ranks.keySet());
    }

    /** Why this iteration is not restorable: the blocks missing and the groups that lost more lines than their parity covers. */
    String gap(int blockCount) {
        Set<Long> restorable = restorable();
        List<Long> missing = java.util.stream.LongStream.range(-1, blockCount).filter(id -> !restorable.contains(id)).boxed().toList();
        StringBuilder why = new StringBuilder("blocks ").append(missing.size() <= 8 ? missing : missing.subList(0, 8) + "…")
                .append(" are in no line");
        Set<List<Integer>> seen = new HashSet<>();
        for (ParityRecord group : parity.values()) {
            List<Integer> lost = group.members().stream().filter(w -> !ranks.containsKey(w)).toList();
            if (seen.add(group.members()) && lost.size() > group.parityShards()) {
                why.append("; the ").append(group.code()).append(" group ").append(group.members())
                        .append(" lost the lines of world ranks ")
                        .append(lost).append(", more than its ").append(group.parityShards()).append(" parity share(s) cover");
            }
        }
        if (parity.isEmpty()) {
            why.append(" and no line carries erasure parity");
        }
        return why.toString();
    }

    /** Every block held by a line or rebuildable from parity. */
    Set<Long> restorable() {
        Set<Long> all = new HashSet<>(blocks.keySet());
        rebuildable().forEach((w, group) -> Arrays.stream(group.blocksOf(w)).forEach(all::add));
        return all;
    }
}
