package io.ironloop.cli;

import io.ironloop.IronloopException;
import io.ironloop.config.Units;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop export PATH --format npy|hdf5 --out DIR}: one file per entry of one checkpoint, readable by
 * NumPy ({@code .npy}) or any HDF5 reader ({@code .h5}). Every chunk's checksum is checked while reading.
 * Never overwrites: if any target file exists, nothing is written.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Export every entry of one checkpoint as a file of its own: NumPy .npy (format 1.0) or HDF5"
                + " .h5 (one dataset, written with jHDF). OPAQUE entries (direct buffers, user entities) become"
                + " uint8 arrays; HDF5 stores booleans as uint8 and chars as uint16.",
            "PATH is a .ilc data file, a .commit record or a line, or a series or store directory (its newest"
                + " committed line). File names are the entry names with characters other than letters, digits,"
                + " '.', '_' and '-' replaced by '_'. Existing files are never overwritten."})
final class ExportCommand implements Callable<Integer> {
    /** Heap an HDF5 export needs, in multiples of the entry's size. */
    static final int HDF5_HEAP_FACTOR = 3;

    /** The output formats. */
    enum Format {
        NPY(".npy"), HDF5(".h5");

        final String extension;

        Format(String extension) {
            this.extension = extension;
        }
    }

    @Parameters(paramLabel = "PATH", arity = "0..1", description = "Data file, commit record, line, series or store; with"
            + " --level, a name inside the level (SERIES, SERIES/line-NNNNNNNNNNNN, SERIES/line-NNNNNNNNNNNN.ilc) or nothing.")
    Path path;

    @Mixin
    LevelOptions level = new LevelOptions();

    @Option(names = "--format", required = true, paramLabel = "npy|hdf5", description = "Output format: ${COMPLETION-CANDIDATES}.")
    Format format;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write into (created if missing).")
    Path out;

    @Option(names = "--max-size", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Refuse (exit 1, nothing written) when the files would hold more than SIZE bytes in all,"
                    + " e.g. 512MiB. Without it, only the free space of --out limits the export.")
    Long maxSize;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (path == null && !level.given()) {
            throw CheckpointPath.usage(spec, "give PATH, or --level L for the newest committed line of a level");
        }
        CheckpointPath target = level.given() ? CheckpointPath.inLevel(path, spec) : CheckpointPath.resolve(path, spec);
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw CheckpointPath.usage(spec, "--out " + out + " exists and is not a directory: give a directory to write into");
        }
        Store store = level.given() ? level.open(spec) : target.openStore();
        String name = target.dataFile(StoreCatalog.of(store));
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        try (CheckpointFile file = CheckpointFile.open(store, name)) {
            Map<EntryDescriptor, Path> plan = plan(file.manifest().entries());
            List<String> existing = new ArrayList<>();
            for (Path p : plan.values()) {
                if (Files.exists(p)) {
                    existing.add(p.getFileName().toString());
                }
            }
            if (!existing.isEmpty()) {
                throw CheckpointPath.usage(spec, "export refuses to overwrite " + existing + " in " + out
                        + ": choose another --out directory or remove those files");
            }
            checkRoom(name, plan.keySet());
            Files.createDirectories(out);
            stderr.println("exporting " + name + " (iteration " + file.manifest().meta().iteration() + ") to " + out);
            for (Map.Entry<EntryDescriptor, Path> e : plan.entrySet()) {
                EntryHeader h = e.getKey().header();
                if (format == Format.HDF5 && !Hdf5Writer.writable(h.shape())) {
                    stderr.println("skipped entry '" + h.name() + "' of shape " + Arrays.toString(h.shape())
                            + ": jHDF cannot write empty datasets or dimensions above 2^31-1 (export it as npy)");
                    continue;
                }
                Path target2 = e.getValue();
                if (format == Format.NPY) {
                    NpyWriter.write(target2, h.type(), h.shape(), (ch, start) ->
                            file.stream(e.getKey(), (offset, bytes) -> NpyWriter.writeFully(ch, start + offset, bytes)));
                } else {
                    writeHdf5(file, e.getKey(), target2, name);
                }
                stdout.println(target2 + "  " + h.name() + " " + h.type() + Arrays.toString(h.shape()));
            }
        }
        return Main.OK;
    }

    /**
     * Refuses, before anything is written, an export larger than {@code --max-size} or than the free space where
     * it goes. Zero chunks take no room in a checkpoint, so a small file may claim terabytes.
     *
     * @throws IronloopException naming the checkpoint, the bytes it would write and the limit
     */
    private void checkRoom(String name, Iterable<EntryDescriptor> entries) throws IOException {
        long total = 0;
        EntryDescriptor largest = null;
        for (EntryDescriptor e : entries) {
            total = saturatingAdd(total, outputBytes(e.header()));
            if (largest == null || e.header().byteLength() > largest.header().byteLength()) {
                largest = e;
            }
        }
        String what = "exporting " + name + " would write " + mib(total) + " (" + total + " bytes"
                + (largest == null ? "" : "; entry '" + largest.name() + "' alone holds " + largest.header().byteLength()) + ")";
        if (maxSize != null && total > maxSize) {
            throw new IronloopException(what + ", more than --max-size " + mib(maxSize) + ": nothing was written;"
                    + " raise --max-size if that much is expected");
        }
        Path existing = out.toAbsolutePath();
        while (!Files.exists(existing) && existing.getParent() != null) {
            existing = existing.getParent();
        }
        long free = Files.getFileStore(existing).getUsableSpace();
        if (total > free) {
            throw new IronloopException(what + ", but " + existing + " has only " + mib(free) + " (" + free
                    + " bytes) free: nothing was written; free space or choose another --out");
        }
    }

    /** A size in MiB with one decimal, for people (the exact bytes follow it in messages). */
    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /** The bytes an entry's output file takes: its data plus the npy header (HDF5's structure is of the same order). */
    private static long outputBytes(EntryHeader h) {
        return saturatingAdd(h.byteLength(), NpyWriter.header(h.type(), h.shape()).length);
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * Writes one entry as HDF5. jHDF writes a dataset from one Java array, so the entry cannot be streamed: it is
     * refused unless about {@value #HDF5_HEAP_FACTOR} times its size is left on the heap (the flat array, its nested
     * copy for several dimensions, jHDF's buffer). The chunks are copied straight into the flat array.
     *
     * @throws IronloopException when the heap is too small for the entry
     */
    private void writeHdf5(CheckpointFile file, EntryDescriptor entry, Path target, String source) throws IOException {
        EntryHeader h = entry.header();
        Runtime rt = Runtime.getRuntime();
        long left = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        long elements = h.byteLength() / h.type().width();
        if (elements > Integer.MAX_VALUE - 8 || h.byteLength() > left / HDF5_HEAP_FACTOR) {
            throw new IronloopException("entry '" + h.name() + "' of " + source + " holds " + h.byteLength() + " bytes; HDF5 export"
                    + " holds a whole dataset in memory (jHDF) and needs about " + HDF5_HEAP_FACTOR + " times that, but "
                    + left + " bytes of heap are left: export it as npy (streamed, any size) or raise the heap with"
                    + " IRONLOOP_JAVA_OPTS=-Xmx...");
        }
        Object flat = Hdf5Writer.flatArray(h.type(), (int) elements);
        file.stream(entry, (offset, bytes) -> Hdf5Writer.copy(h.type(), bytes, flat, offset));
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("ironloop_entry", h.name());
        attributes.put("ironloop_type", h.type().name());
        attributes.put("ironloop_scope", h.scope().name());
        attributes.put("ironloop_source", source);
        Hdf5Writer.write(target, datasetName(target), h.type(), h.shape(), flat, attributes);
    }

    /** Parses sizes with units ({@code 512MiB}, {@code 2GB}, a bare number of bytes). */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseSize(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The output file of every entry: sanitised, unique even on case-insensitive file systems. */
    private Map<EntryDescriptor, Path> plan(List<EntryDescriptor> entries) {
        Map<EntryDescriptor, Path> plan = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (EntryDescriptor e : entries) {
            String base = sanitise(e.name());
            String candidate = base;
            for (int n = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); n++) {
                candidate = base + "_" + n;
            }
            plan.put(e, out.resolve(candidate + format.extension));
        }
        return plan;
    }

    /** The HDF5 dataset name in a file: the file's name without its extension. */
    private String datasetName(Path file) {
        String f = file.getFileName().toString();
        return f.substring(0, f.length() - format.extension.length());
    }

    /** Letters, digits, '.', '_' and '-' kept, everything else '_'; never empty, never hidden, at most 200 characters. */
    static String sanitise(String entryName) {
        String s = entryName.replaceAll("[^A-Za-z0-9._-]", "_");
        if (s.isEmpty() || s.startsWith(".")) {
            s = "_" + s;
        }
        return s.length() > 200 ? s.substring(0, 200) : s;
    }
}
