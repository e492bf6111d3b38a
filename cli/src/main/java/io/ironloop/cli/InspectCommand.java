package io.ironloop.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.Codec;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop inspect PATH}: the manifest of one data file (its meta and entries), chunk statistics, and
 * what compression, zero elision and differential references saved. Reads the manifest only.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Show one checkpoint file: manifest (job, iteration, rank, world size, settings fingerprint,"
                + " writer version, time), entries (name, type, shape, scope, codec, bytes), chunk statistics"
                + " (zero-elided, compressed, referenced, stored versus raw bytes) and the savings of compression,"
                + " zero elision and differential references.",
            "PATH is a .ilc data file, a .commit record or a line (its data file), or a series or store"
                + " directory (its newest committed line)."})
final class InspectCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "0..1", description = "Data file, commit record, line, series or store; with"
            + " --level, a name inside the level (SERIES, SERIES/line-NNNNNNNNNNNN, SERIES/line-NNNNNNNNNNNN.ilc) or nothing.")
    Path path;

    @Mixin
    LevelOptions level = new LevelOptions();

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Spec
    CommandSpec spec;

    /**
     * What a file's chunks hold.
     *
     * @param chunks all chunks
     * @param zero chunks elided because all zero
     * @param compressed chunks stored here with a codec
     * @param referenced chunks held by earlier files
     * @param rawBytes payload bytes before elision, compression and references
     * @param storedBytes chunk bytes stored in this file
     * @param zeroSaved raw bytes of zero chunks
     * @param compressionSaved raw minus stored bytes of compressed chunks
     * @param referenceSaved raw bytes of referenced chunks
     */
    record ChunkStats(long chunks, long zero, long compressed, long referenced, long rawBytes, long storedBytes, long zeroSaved,
                      long compressionSaved, long referenceSaved) {
        static ChunkStats of(List<EntryDescriptor> entries) {
            long n = 0;
            long zero = 0;
            long comp = 0;
            long ref = 0;
            long raw = 0;
            long stored = 0;
            long zeroSaved = 0;
            long compSaved = 0;
            long refSaved = 0;
            for (EntryDescriptor e : entries) {
                for (ChunkDescriptor c : e.chunks()) {
                    n++;
                    raw += c.rawLength();
                    if (c.zero()) {
                        zero++;
                        zeroSaved += c.rawLength();
                    } else if (c.file() != null) {
                        ref++;
                        refSaved += c.rawLength();
                    } else {
                        stored += c.storedLength();
                        if (c.codec() != Codec.NONE) {
                            comp++;
                            compSaved += c.rawLength() - c.storedLength();
                        }
                    }
                }
            }
            return new ChunkStats(n, zero, comp, ref, raw, stored, zeroSaved, compSaved, refSaved);
        }
    }

    @Override
    public Integer call() throws IOException {
        if (path == null && !level.given()) {
            throw CheckpointPath.usage(spec, "give PATH, or --level L for the newest committed line of a level");
        }
        CheckpointPath target = level.given() ? CheckpointPath.inLevel(path, spec) : CheckpointPath.resolve(path, spec);
        Store store = level.given() ? level.open(spec) : target.openStore();
        String name = target.dataFile(StoreCatalog.of(store));
        if (target.kind() == CheckpointPath.Kind.STORE || target.kind() == CheckpointPath.Kind.SERIES) {
            spec.commandLine().getErr().println("inspecting the newest committed line: " + name);
        }
        Manifest m;
        long fileBytes;
        try (CheckpointFile f = CheckpointFile.open(store, name)) {
            m = f.manifest();
            fileBytes = store.size(name);
        }
        ChunkStats stats = ChunkStats.of(m.entries());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.pretty(json(name, fileBytes, m, stats)));
        } else {
            printText(out, name, fileBytes, m, stats);
        }
        // the same identity rule restore applies: a file put in another's place is damage, whatever it holds
        Optional<String> identity = StoreCatalog.of(store).identityProblem(name, m);
        identity.ifPresent(problem -> spec.commandLine().getErr().println("ironloop inspect: DAMAGED: " + problem));
        return identity.isPresent() ? Main.FAILURE : Main.OK;
    }

    private static void printText(PrintWriter out, String name, long fileBytes, Manifest m, ChunkStats s) {
        FileMeta meta = m.meta();
        out.println("file          " + name + " (" + fileBytes + " bytes)");
        out.println("format        version " + m.formatVersion() + ", written by " + m.writerVersion());
        out.println("job           " + meta.jobId());
        out.println("iteration     " + meta.iteration());
        out.println("rank          " + meta.rank() + " of world size " + meta.worldSize());
        out.println("settings      " + meta.settingsFingerprint());
        out.println("created       " + meta.createdAt());
        if (!meta.attributes().isEmpty()) {
            out.println("attributes    " + new java.util.TreeMap<>(meta.attributes()));
        }
        out.println();
        TextTable t = new TextTable("ENTRY", "TYPE", "SHAPE", "SCOPE", "CODEC", "BYTES", "STORED", "CHUNKS");
        for (EntryDescriptor e : m.entries()) {
            EntryHeader h = e.header();
            ChunkStats es = ChunkStats.of(List.of(e));
            t.row(h.name(), h.type(), Arrays.toString(h.shape()), h.scope(), h.codec(), h.byteLength(), es.storedBytes(), es.chunks());
        }
        t.print(out);
        out.println();
        out.printf(Locale.ROOT, "chunks        %d: %d zero-elided, %d compressed, %d referenced from earlier files, %d stored plain%n",
                s.chunks(), s.zero(), s.compressed(), s.referenced(), s.chunks() - s.zero() - s.compressed() - s.referenced());
        out.printf(Locale.ROOT, "bytes         %d raw, %d stored in this file (%s of raw), file %d%n", s.rawBytes(), s.storedBytes(),
                percent(s.storedBytes(), s.rawBytes()), fileBytes);
        out.printf(Locale.ROOT, "saved         compression %d (%s), zero elision %d (%s), references %d (%s)%n",
                s.compressionSaved(), percent(s.compressionSaved(), s.rawBytes()), s.zeroSaved(), percent(s.zeroSaved(), s.rawBytes()),
                s.referenceSaved(), percent(s.referenceSaved(), s.rawBytes()));
    }

    static String percent(long part, long whole) {
        return whole == 0 ? "0.0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    private static ObjectNode json(String name, long fileBytes, Manifest m, ChunkStats s) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("file", name);
        o.put("fileBytes", fileBytes);
        o.put("formatVersion", m.formatVersion());
        o.put("writerVersion", m.writerVersion());
        FileMeta meta = m.meta();
        o.put("jobId", meta.jobId());
        o.put("iteration", meta.iteration());
        o.put("rank", meta.rank());
        o.put("worldSize", meta.worldSize());
        o.put("settingsFingerprint", meta.settingsFingerprint());
        o.put("createdAt", meta.createdAt().toString());
        ObjectNode attrs = o.putObject("attributes");
        meta.attributes().forEach(attrs::put);
        ArrayNode entries = o.putArray("entries");
        for (EntryDescriptor e : m.entries()) {
            EntryHeader h = e.header();
            ObjectNode j = entries.addObject();
            j.put("name", h.name());
            j.put("type", h.type().name());
            ArrayNode shape = j.putArray("shape");
            for (long d : h.shape()) {
                shape.add(d);
            }
            j.put("scope", h.scope().name());
            j.put("codec", h.codec().name());
            j.put("bytes", h.byteLength());
            j.set("chunks", stats(ChunkStats.of(List.of(e))));
        }
        o.set("chunks", stats(s));
        return o;
    }

    private static ObjectNode stats(ChunkStats s) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("count", s.chunks());
        o.put("zeroElided", s.zero());
        o.put("compressed", s.compressed());
        o.put("referenced", s.referenced());
        o.put("rawBytes", s.rawBytes());
        o.put("storedBytes", s.storedBytes());
        o.put("compressionSavedBytes", s.compressionSaved());
        o.put("zeroElisionSavedBytes", s.zeroSaved());
        o.put("referenceSavedBytes", s.referenceSaved());
        o.put("compressionSavedPercent", ratio(s.compressionSaved(), s.rawBytes()));
        o.put("zeroElisionSavedPercent", ratio(s.zeroSaved(), s.rawBytes()));
        o.put("referenceSavedPercent", ratio(s.referenceSaved(), s.rawBytes()));
        return o;
    }

    private static double ratio(long part, long whole) {
        return whole == 0 ? 0.0 : Math.round(1000.0 * part / whole) / 10.0;
    }
}
