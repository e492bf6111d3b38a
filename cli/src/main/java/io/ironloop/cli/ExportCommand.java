package io.ironloop.cli;

import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
    /** The output formats. */
    enum Format {
        NPY(".npy"), HDF5(".h5");

        final String extension;

        Format(String extension) {
            this.extension = extension;
        }
    }

    @Parameters(paramLabel = "PATH", description = "Data file, commit record, line, series or store.")
    Path path;

    @Option(names = "--format", required = true, paramLabel = "npy|hdf5", description = "Output format: ${COMPLETION-CANDIDATES}.")
    Format format;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write into (created if missing).")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        CheckpointPath target = CheckpointPath.resolve(path, spec);
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw CheckpointPath.usage(spec, "--out " + out + " exists and is not a directory: give a directory to write into");
        }
        Store store = target.openStore();
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
            Files.createDirectories(out);
            stderr.println("exporting " + name + " (iteration " + file.manifest().meta().iteration() + ") to " + out);
            for (Map.Entry<EntryDescriptor, Path> e : plan.entrySet()) {
                EntryHeader h = e.getKey().header();
                if (format == Format.HDF5 && !Hdf5Writer.writable(h.shape())) {
                    stderr.println("skipped entry '" + h.name() + "' of shape " + Arrays.toString(h.shape())
                            + ": jHDF cannot write empty datasets or dimensions above 2^31-1 (export it as npy)");
                    continue;
                }
                ByteBuffer data = file.read(e.getKey());
                Path target2 = e.getValue();
                if (format == Format.NPY) {
                    NpyWriter.write(target2, h.type(), h.shape(), data);
                } else {
                    Map<String, String> attributes = new LinkedHashMap<>();
                    attributes.put("ironloop_entry", h.name());
                    attributes.put("ironloop_type", h.type().name());
                    attributes.put("ironloop_scope", h.scope().name());
                    attributes.put("ironloop_source", name);
                    Hdf5Writer.write(target2, datasetName(target2), h.type(), h.shape(), data, attributes);
                }
                stdout.println(target2 + "  " + h.name() + " " + h.type() + Arrays.toString(h.shape()));
            }
        }
        return Main.OK;
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
