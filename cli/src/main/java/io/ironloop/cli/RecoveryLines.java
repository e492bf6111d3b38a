package io.ironloop.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.config.Parameters;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code ironloop ls --levels}: for every iteration some configured level holds a complete line of (every rank's
 * series), which levels hold it and what losses a restart from it survives; and what the in-memory level of the
 * running job survives. The rule per level, nearest first:
 * <ul>
 *   <li>{@code local} (FT_FOLDER, on each node's disk): any number of processes, as long as their hosts survive; with
 *       {@code DISK_PER_HOST} (a store per host), also the loss of whole host stores that the parity in the lines covers;</li>
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
        LocalLevel local = LocalLevel.of(p); // with DISK_PER_HOST, the hosts' stores read as one, as a relaunch decides
        Map<String, Map<Long, Set<Integer>>> byHost = local.perHost() ? ranksByHost(local) : Map.of();
        stores.put(LevelOptions.LOCAL, local.store());
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
                    if (e.getKey().equals(LevelOptions.LOCAL) && !byHost.isEmpty()) {
                        survives += "; " + hostLosses(it, c, records, byHost);
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

    /** Per host store (its folder below FT_FOLDER), per iteration, the world ranks whose committed lines it holds. */
    private static Map<String, Map<Long, Set<Integer>>> ranksByHost(LocalLevel local) throws IOException {
        Map<String, Map<Long, Set<Integer>>> out = new TreeMap<>();
        for (Map.Entry<String, java.nio.file.Path> h : local.stores().entrySet()) {
            try (Store store = Store.directory(h.getValue())) {
                StoreCatalog catalog = StoreCatalog.of(store);
                Map<Long, Set<Integer>> lines = new TreeMap<>();
                for (String series : catalog.series()) {
                    for (LineInfo l : catalog.list(series).lines()) {
                        if (StoreCatalog.rankOf(series) >= 0) {
                            lines.computeIfAbsent(l.iteration(), i -> new TreeSet<>()).add(StoreCatalog.rankOf(series));
                        }
                    }
                }
                if (!lines.isEmpty()) { // a store of no rank's lines (FT_FOLDER's own, for job-wide records) is no host of the loop
                    out.put(h.getKey().isEmpty() ? "." : h.getKey(), lines);
                }
            }
        }
        return out;
    }

    /**
     * Which losses of whole host stores a restart from iteration {@code it} survives: a set of hosts is survivable when every
     * rank's line of {@code it} is on another host or rebuildable from the parity in the remaining lines (at most m lost
     * per erasure group). Says the largest h such that losing any h of the stores is survivable, and else which single
     * stores may be lost.
     */
    static String hostLosses(long it, LsCommand.Completeness c, Map<Integer, ParityRecord> records, Map<String, Map<Long, Set<Integer>>> byHost) {
        List<String> hosts = new ArrayList<>(byHost.keySet());
        int h = 0;
        for (int size = 1; size < hosts.size() && h == size - 1 && binomial(hosts.size(), size) <= 4096; size++) {
            if (everySubsetSurvivable(hosts, size, 0, new ArrayList<>(), it, c, records, byHost)) {
                h = size;
            }
        }
        String of = " of its " + hosts.size() + " host stores (" + String.join(", ", hosts) + ")";
        if (h > 0) {
            return "the loss of any " + h + of;
        }
        List<String> single = hosts.stream().filter(x -> survivable(List.of(x), it, c, records, byHost)).toList();
        return single.isEmpty() ? "not the loss of any" + of : "the loss of only " + String.join(" or ", single) + of.replace(" of its", ", of its");
    }

    private static boolean everySubsetSurvivable(List<String> hosts, int size, int from, List<String> chosen, long it, LsCommand.Completeness c,
            Map<Integer, ParityRecord> records, Map<String, Map<Long, Set<Integer>>> byHost) {
        if (chosen.size() == size) {
            return survivable(chosen, it, c, records, byHost);
        }
        for (int i = from; i < hosts.size(); i++) {
            chosen.add(hosts.get(i));
            boolean ok = everySubsetSurvivable(hosts, size, i + 1, chosen, it, c, records, byHost);
            chosen.remove(chosen.size() - 1);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean survivable(List<String> lost, long it, LsCommand.Completeness c, Map<Integer, ParityRecord> records,
            Map<String, Map<Long, Set<Integer>>> byHost) {
        Set<Integer> present = new TreeSet<>();
        byHost.forEach((host, lines) -> {
            if (!lost.contains(host)) {
                present.addAll(lines.getOrDefault(it, Set.of()));
            }
        });
        Map<Integer, ParityRecord> remaining = new TreeMap<>(records);
        remaining.keySet().retainAll(present);
        Set<Integer> missing = new TreeSet<>();
        for (int r = 0; r < c.worldSize(); r++) {
            if (!present.contains(r)) {
                missing.add(r);
            }
        }
        return ParityRecord.rebuildable(remaining.values(), present).keySet().containsAll(missing);
    }

    private static long binomial(int n, int k) {
        long b = 1;
        for (int i = 1; i <= k; i++) {
            b = b * (n - k + i) / i;
        }
        return b;
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
