package io.ironloop.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.StoreCatalog.InvalidCommit;
import io.ironloop.core.StoreCatalog.SeriesListing;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Manifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop ls DIR} (or {@code ironloop ls --level L}): every line of every series of a store with its state, then which ranks each
 * iteration is complete for. Read-only.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"List the lines of a checkpoint store: series, line, iteration, size, full or differential,"
                + " settings fingerprint, creation time and state (committed, invalid commit record, orphan data,"
                + " temporary); then, per iteration, the ranks it is complete for.",
            "A line of series rank-NNNNN is complete for that rank when its commit record holds.",
            "With --level L, the store of level L (local, shared or s3) as the run's parameters configure it.",
            "A DIR (or local level) that holds one store per host below it (DISK_PER_HOST) is listed as one store of all their lines.",
            "With --levels, every level the run's parameters configure: per iteration with a complete line, which levels hold it",
            "and what losses a restart from it survives, and what the running job's in-memory level survives."})
final class LsCommand implements Callable<Integer> {
    private static final Pattern SEQUENCE = StoreCatalog.LINE_NAME;
    static final String GLOBAL_SERIES = "global";

    @Parameters(paramLabel = "DIR", arity = "0..1", description = "The store directory (FT_FOLDER); omit it with --level.")
    Path dir;

    @Mixin
    LevelOptions level = new LevelOptions();

    @Option(names = "--levels", description = "List the recovery lines over every configured level (--params FILE) and the losses each survives.")
    boolean levels;

    @Option(names = "--json", description = "Print one JSON object instead of tables.")
    boolean json;

    @Spec
    CommandSpec spec;

    /** One row of the listing: a committed line, or a file that is not one. */
    record Row(String series, long sequence, Long iteration, Long bytes, Set<String> references, String fingerprint,
               Instant created, String state, String file, String error) {
        String kind() {
            return references == null ? null : references.isEmpty() ? "full" : "diff(" + references.size() + ")";
        }
    }

    @Override
    public Integer call() throws IOException {
        if (levels) {
            if (level.given() || dir != null) {
                throw CheckpointPath.usage(spec, "--levels reads every level the parameters configure: give --params FILE, not DIR or --level");
            }
            io.ironloop.config.Parameters p = level.parameters();
            List<RecoveryLines.Line> lines = RecoveryLines.lines(p);
            String memory = RecoveryLines.memory(p);
            if (json) {
                spec.commandLine().getOut().println(Json.pretty(RecoveryLines.json(lines, memory)));
            } else {
                RecoveryLines.print(spec.commandLine().getOut(), lines, memory);
            }
            return Main.OK;
        }
        if (level.given() == (dir != null)) {
            throw CheckpointPath.usage(spec, "give either DIR or --level L");
        }
        Path root = null;
        Store store;
        if (level.given()) {
            store = level.open(spec);
        } else {
            CheckpointPath target = CheckpointPath.resolve(dir, spec);
            if (target.kind() != CheckpointPath.Kind.STORE) {
                throw CheckpointPath.usage(spec, dir + " is not a store directory (it looks like a "
                        + target.kind().name().toLowerCase(java.util.Locale.ROOT) + "): give the directory holding the series");
            }
            root = target.root();
            store = target.openStore();
            LocalLevel hosts = LocalLevel.at(root, true);
            if (hosts.perHost() && !hosts.stores().containsKey("")) { // DISK_PER_HOST: no series here, the hosts' stores below, as one
                store.close();
                store = hosts.store();
                root = null;
            }
        }
        try {
            return list(store, root);
        } finally {
            store.close();
        }
    }

    /** Lists {@code store}; {@code root} is its directory (null for a store that is not one). */
    private int list(Store store, Path root) throws IOException {
        StoreCatalog catalog = StoreCatalog.of(store);
        List<Row> rows = new ArrayList<>();
        List<LineInfo> committed = new ArrayList<>();
        for (String series : catalog.series()) {
            SeriesListing listing = catalog.list(series);
            committed.addAll(listing.lines());
            rows.addAll(rows(store, root, listing));
        }
        rows.sort(Comparator.comparing(Row::series).thenComparingLong(Row::sequence).thenComparing(Row::file));
        Map<Long, Completeness> iterations = completeness(committed);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.pretty(json(store.location(), rows, iterations)));
        } else {
            printText(out, store.location(), rows, iterations);
        }
        return Main.OK;
    }

    private static List<Row> rows(Store store, Path root, SeriesListing listing) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (LineInfo l : listing.lines()) {
            rows.add(new Row(l.series(), l.sequence(), l.iteration(), l.dataBytes(), new TreeSet<>(l.references()),
                    l.settingsFingerprint(), l.createdAt(), "committed", l.dataFile(), null));
        }
        for (InvalidCommit bad : listing.invalidCommits()) {
            String data = sibling(bad.commitFile(), StoreCatalog.COMMIT_SUFFIX);
            rows.add(fromData(store, listing.series(), data, "invalid commit record", bad.commitFile(), bad.error().getMessage()));
        }
        for (String orphan : listing.orphanDataFiles()) {
            rows.add(fromData(store, listing.series(), orphan, "orphan data", orphan, null));
        }
        for (String temp : listing.temporaries()) {
            Path p = root == null ? null : root.resolve(temp);
            Long size = p != null && Files.isRegularFile(p) ? Files.size(p) : null;
            rows.add(new Row(listing.series(), sequenceOf(temp), null, size, null, null, null, "temporary", temp, null));
        }
        return rows;
    }

    /** A row described from a data file that has no valid commit record (its manifest, when readable). */
    private static Row fromData(Store store, String series, String data, String state, String file, String error) throws IOException {
        boolean exists = store.listFiles(series).contains(data);
        Long bytes = exists ? sizeIfRegular(store, data) : null;
        Optional<Manifest> m = exists ? CheckpointFile.manifestIfReadable(store, data) : Optional.empty();
        Set<String> refs = m.map(LsCommand::references).orElse(null);
        return new Row(series, sequenceOf(file), m.map(x -> x.meta().iteration()).orElse(null), bytes, refs,
                m.map(x -> x.meta().settingsFingerprint()).orElse(null), m.map(x -> x.meta().createdAt()).orElse(null), state, file,
                error != null ? error : m.isEmpty() ? "data file unreadable or missing" : null);
    }

    /** The size of a data file, or null when it is not a regular file (a named pipe, a link): the row says why. */
    private static Long sizeIfRegular(Store store, String data) throws IOException {
        try {
            return store.size(data);
        } catch (CorruptCheckpointException e) {
            return null;
        }
    }

    static Set<String> references(Manifest m) {
        Set<String> refs = new TreeSet<>();
        for (EntryDescriptor e : m.entries()) {
            for (ChunkDescriptor c : e.chunks()) {
                if (c.file() != null) {
                    refs.add(c.file());
                }
            }
        }
        return refs;
    }

    private static String sibling(String name, String suffix) {
        return name.substring(0, name.length() - suffix.length()) + StoreCatalog.DATA_SUFFIX;
    }

    private static long sequenceOf(String name) {
        Matcher m = SEQUENCE.matcher(name);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Which ranks an iteration's committed lines cover. */
    record Completeness(Set<Integer> ranks, int worldSize, boolean global, Set<String> otherSeries) {
        Set<Integer> missing() {
            Set<Integer> m = new TreeSet<>();
            for (int r = 0; r < worldSize; r++) {
                if (!ranks.contains(r)) {
                    m.add(r);
                }
            }
            return m;
        }
    }

    static Map<Long, Completeness> completeness(List<LineInfo> lines) {
        Map<Long, Completeness> out = new TreeMap<>();
        for (LineInfo l : lines) {
            Completeness c = out.computeIfAbsent(l.iteration(), i -> new Completeness(new TreeSet<>(), 0, false, new TreeSet<>()));
            int rank = StoreCatalog.rankOf(l.series());
            if (rank >= 0) {
                c.ranks().add(rank);
                c = new Completeness(c.ranks(), Math.max(c.worldSize(), l.worldSize()), c.global(), c.otherSeries());
            } else if (l.series().equals(GLOBAL_SERIES)) {
                c = new Completeness(c.ranks(), c.worldSize(), true, c.otherSeries());
            } else {
                c.otherSeries().add(l.series());
            }
            out.put(l.iteration(), c);
        }
        return out;
    }

    private static void printText(PrintWriter out, String root, List<Row> rows, Map<Long, Completeness> iterations) {
        out.println("store " + root);
        if (rows.isEmpty()) {
            out.println("no lines");
            return;
        }
        TextTable t = new TextTable("SERIES", "LINE", "ITERATION", "BYTES", "KIND", "SETTINGS", "CREATED", "STATE");
        for (Row r : rows) {
            t.row(r.series(), r.sequence() < 0 ? null : r.sequence(), r.iteration(), r.bytes(), r.kind(),
                    r.fingerprint() == null ? null : r.fingerprint().substring(0, Math.min(12, r.fingerprint().length())),
                    r.created() == null ? null : r.created().truncatedTo(ChronoUnit.SECONDS), r.state());
        }
        t.print(out);
        for (Row r : rows) {
            if (r.error() != null) {
                out.println("  " + r.file() + ": " + r.error());
            }
        }
        out.println();
        TextTable it = new TextTable("ITERATION", "WORLD", "COMPLETE FOR RANKS", "MISSING", "GLOBAL", "OTHER SERIES");
        for (Map.Entry<Long, Completeness> e : iterations.entrySet()) {
            Completeness c = e.getValue();
            it.row(e.getKey(), c.worldSize() == 0 ? null : c.worldSize(), c.ranks().isEmpty() ? null : ranges(c.ranks()),
                    c.worldSize() == 0 ? null : c.missing().isEmpty() ? "none" : ranges(c.missing()), c.global() ? "yes" : "no",
                    c.otherSeries().isEmpty() ? null : String.join(",", c.otherSeries()));
        }
        if (iterations.isEmpty()) {
            out.println("no committed line");
        } else {
            it.print(out);
        }
    }

    /** "0-3,5,7-8". */
    static String ranges(Set<Integer> ranks) {
        StringBuilder s = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int r : ranks) {
            if (prev != null && r == prev + 1) {
                prev = r;
                continue;
            }
            if (start != null) {
                appendRange(s, start, prev);
            }
            start = r;
            prev = r;
        }
        if (start != null) {
            appendRange(s, start, prev);
        }
        return s.toString();
    }

    private static void appendRange(StringBuilder s, int from, int to) {
        if (s.length() > 0) {
            s.append(',');
        }
        s.append(from == to ? Integer.toString(from) : from + "-" + to);
    }

    private static ObjectNode json(String root, List<Row> rows, Map<Long, Completeness> iterations) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("store", root);
        ArrayNode lines = o.putArray("lines");
        for (Row r : rows) {
            ObjectNode l = lines.addObject();
            l.put("series", r.series());
            putNullable(l, "line", r.sequence() < 0 ? null : r.sequence());
            putNullable(l, "iteration", r.iteration());
            putNullable(l, "dataBytes", r.bytes());
            if (r.references() == null) {
                l.putNull("full");
                l.putNull("references");
            } else {
                l.put("full", r.references().isEmpty());
                ArrayNode refs = l.putArray("references");
                r.references().forEach(refs::add);
            }
            l.put("settingsFingerprint", r.fingerprint());
            l.put("createdAt", r.created() == null ? null : r.created().toString());
            l.put("state", r.state());
            l.put("file", r.file());
            l.put("error", r.error());
        }
        ArrayNode its = o.putArray("iterations");
        for (Map.Entry<Long, Completeness> e : iterations.entrySet()) {
            ObjectNode i = its.addObject();
            i.put("iteration", e.getKey());
            i.put("worldSize", e.getValue().worldSize());
            ArrayNode ranks = i.putArray("completeRanks");
            e.getValue().ranks().forEach(ranks::add);
            ArrayNode missing = i.putArray("missingRanks");
            e.getValue().missing().forEach(missing::add);
            i.put("global", e.getValue().global());
            ArrayNode others = i.putArray("otherSeries");
            e.getValue().otherSeries().forEach(others::add);
        }
        return o;
    }

    private static void putNullable(ObjectNode o, String field, Long value) {
        if (value == null) {
            o.putNull(field);
        } else {
            o.put(field, value);
        }
    }
}
