package io.ironloop.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.ParityRecord;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.core.level.RemoteLevels;
import io.ironloop.runtime.blocks.BlockKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ironloop ls --levels}: for every iteration some configured level holds a complete line of (every rank's
 * series), which levels hold it and what losses a restart from it survives; and what the in-memory level of the
 * running job survives. The rule per level, nearest first:
 * <ul>
 *   <li>{@code local} (FT_FOLDER, on each node's disk): any number of processes, as long as their hosts survive;</li>
 *   <li>{@code shared} (SHARED_FOLDER): whole hosts, any number of them;</li>
 *   <li>{@code s3} (S3_URI): the machine, every host at once (a fresh machine restores from it).</li>
 * </ul>
 */
final class RecoveryLines {
    /** Per level name, what a line there survives; nearest first. */
    static final Map<String, String> SURVIVES = Map.of(
            LevelOptions.LOCAL, "any processes (their hosts intact)",
            RemoteLevel.SHARED, "whole hosts",
            "s3", "the machine (every host)");

    private RecoveryLines() {
    }

    /** One iteration: the levels that hold every rank's line of it, nearest first, and what that survives. */
    record Line(long iteration, int worldSize, List<String> levels, String survives) {
    }

    /** What the configured levels hold, nearest first; each level's store is closed after reading. */
    static List<Line> lines(Parameters p) throws IOException {
        Map<String, Store> stores = new LinkedHashMap<>();
        stores.put(LevelOptions.LOCAL, Store.directory(p.get(EngineKeys.FT_FOLDER).toAbsolutePath().normalize()));
        for (RemoteLevel l : RemoteLevels.open(p)) {
            stores.put(l.name(), l.store());
        }
        TreeMap<Long, Line> byIteration = new TreeMap<>();
        for (Map.Entry<String, Store> e : stores.entrySet()) {
            try (Store store = e.getValue()) {
                StoreCatalog catalog = StoreCatalog.of(store);
                List<LineInfo> committed = new ArrayList<>();
                for (String series : catalog.series()) {
                    committed.addAll(catalog.list(series).lines());
                }
                // the block loop restores from the local level only, and rebuilds a rank's lost lines there from the parity in the others'
                Map<Long, Map<Integer, ParityRecord>> parity = e.getKey().equals(LevelOptions.LOCAL) ? parity(store, committed) : Map.of();
                LsCommand.completeness(committed).forEach((it, c) -> {
                    if (c.worldSize() == 0) {
                        return;
                    }
                    Map<Integer, ParityRecord> records = parity.getOrDefault(it, Map.of());
                    String survives = SURVIVES.getOrDefault(e.getKey(), "?");
                    if (!c.missing().isEmpty()) {
                        Map<Integer, ParityRecord> rebuildable = ParityRecord.rebuildable(records.values(), c.ranks());
                        if (!rebuildable.keySet().containsAll(c.missing())) {
                            return;
                        }
                        survives += ", once world ranks " + LsCommand.ranges(c.missing()) + "' missing lines are rebuilt from the "
                                + rebuildable.get(c.missing().iterator().next()).code() + " parity in their groups' lines (on restart)";
                    } else if (!records.isEmpty() && records.keySet().containsAll(c.ranks())) {
                        ParityRecord any = records.values().iterator().next();
                        survives += "; with " + any.code() + " parity in its lines, also the loss or damage of " + any.parityShards()
                                + " rank(s)' lines per group of " + any.members().size();
                    }
                    Line old = byIteration.get(it);
                    List<String> levels = new ArrayList<>(old == null ? List.of() : old.levels());
                    levels.add(e.getKey());
                    byIteration.put(it, new Line(it, c.worldSize(), levels, old == null ? survives : SURVIVES.getOrDefault(e.getKey(), "?")));
                });
            }
        }
        return List.copyOf(byIteration.descendingMap().values());
    }

    /** Per iteration, the erasure group record each rank's line carries (lines without one, or unreadable, are left out). */
    private static Map<Long, Map<Integer, ParityRecord>> parity(Store store, List<LineInfo> lines) {
        Map<Long, Map<Integer, ParityRecord>> out = new TreeMap<>();
        for (LineInfo l : lines) {
            int rank = StoreCatalog.rankOf(l.series());
            if (rank < 0) {
                continue;
            }
            try {
                ParityRecord.read(store, l).ifPresent(r -> out.computeIfAbsent(l.iteration(), it -> new TreeMap<>()).put(rank, r));
            } catch (IOException | RuntimeException e) {
                // a damaged line or record: it covers nothing; `ironloop verify` names the damage
            }
        }
        return out;
    }

    /** What the in-memory level of a running block loop survives, from MEMORY_SCHEME, ERASURE_K and ERASURE_M. */
    static String memory(Parameters p) {
        long k = p.get(BlockKeys.ERASURE_K);
        long m = p.get(BlockKeys.ERASURE_M);
        return switch (p.get(BlockKeys.MEMORY_SCHEME)) {
            case PARTNER -> "partner: any 1 rank, or several unless two are partners (whole hosts when partners are on other hosts)";
            case XOR -> "xor: 1 rank per group of " + (k + 1) + " (a whole host when the group's members are on different hosts)";
            case RS -> "rs: " + m + " ranks per group of " + (k + m) + " (" + m + " whole hosts when the group's members are on different hosts)";
        };
    }

    static void print(PrintWriter out, List<Line> lines, String memory) {
        out.println("in memory while the job runs (newest snapshot): " + memory);
        if (lines.isEmpty()) {
            out.println("no level holds a complete line");
            return;
        }
        TextTable t = new TextTable("ITERATION", "WORLD", "LEVELS", "SURVIVES");
        for (Line l : lines) {
            t.row(l.iteration(), l.worldSize(), String.join(",", l.levels()), l.survives());
        }
        t.print(out);
    }

    static ObjectNode json(List<Line> lines, String memory) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("memory", memory);
        ArrayNode a = o.putArray("recoveryLines");
        for (Line l : lines) {
            ObjectNode x = a.addObject();
            x.put("iteration", l.iteration());
            x.put("worldSize", l.worldSize());
            ArrayNode levels = x.putArray("levels");
            l.levels().forEach(levels::add);
            x.put("survives", l.survives());
        }
        return o;
    }
}
