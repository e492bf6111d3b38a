package io.ironloop.cli;

import io.ironloop.core.StoreCatalog;
import io.ironloop.core.StoreCatalog.Problem;
import io.ironloop.core.StoreCatalog.VerifyReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop verify PATH}: checks every checksum of a store, a series, a line or one file, following
 * differential references into earlier files. Exit 0 when all hold; 1 naming each bad file and chunk.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check every checksum under PATH: commit records, and every chunk of every data file, following"
                + " differential references into earlier files.",
            "PATH is a store directory (verified recursively), a series directory, a line"
                + " (DIR/rank-00000/line-000000000003), or one .ilc data file or .commit record.",
            "Exit status 0 when every checksum holds; 1 otherwise, each bad file and chunk printed with its entry,"
                + " chunk index, offset, and stored versus computed CRC32C."})
final class VerifyCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", description = "Store, series, line, data file or commit record.")
    Path path;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        CheckpointPath target = CheckpointPath.resolve(path, spec);
        StoreCatalog catalog = StoreCatalog.of(target.openStore());
        VerifyReport report = switch (target.kind()) {
            case STORE -> catalog.verifyStore();
            case SERIES -> verifySeries(catalog, target.series());
            case LINE -> catalog.verifyLine(target.series(), target.sequence());
            case DATA, COMMIT -> catalog.verifyFile(target.fileName());
        };
        PrintWriter out = spec.commandLine().getOut();
        for (Problem p : report.problems()) {
            out.println("BAD " + describe(p));
        }
        Set<String> files = new LinkedHashSet<>(report.files());
        String summary = "verified " + files.size() + " file(s), " + report.chunks() + " chunk(s) under " + path;
        if (report.ok()) {
            out.println(summary + ": every checksum holds");
            return Main.OK;
        }
        out.println(summary + ": " + report.problems().size() + " problem(s)");
        return Main.FAILURE;
    }

    /** Every commit record of a series with its line, plus data files without a commit record. */
    private static VerifyReport verifySeries(StoreCatalog catalog, String series) throws IOException {
        StoreCatalog.SeriesListing listing = catalog.list(series);
        List<String> files = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        long chunks = 0;
        List<String> targets = new ArrayList<>();
        for (String f : catalog.store().listFiles(series)) {
            if (f.endsWith(StoreCatalog.COMMIT_SUFFIX)) {
                targets.add(f);
            }
        }
        targets.addAll(listing.orphanDataFiles());
        for (String f : targets) {
            VerifyReport r = catalog.verifyFile(f);
            files.addAll(r.files());
            problems.addAll(r.problems());
            chunks += r.chunks();
        }
        return new VerifyReport(files, chunks, problems);
    }

    static String describe(Problem p) {
        StringBuilder s = new StringBuilder(p.file()).append(": ");
        if (p.entry() != null) {
            s.append("entry '").append(p.entry()).append("' chunk ").append(p.chunk()).append(", ");
        }
        s.append("offset ").append(p.offset());
        if (!p.location().equals(p.file())) {
            s.append(" in ").append(p.location());
        }
        if (p.checksumMismatch()) {
            s.append(String.format(": stored CRC32C %08x, computed %08x", p.storedCrc(), p.computedCrc()));
        } else {
            s.append(": ").append(p.message());
        }
        return s.toString();
    }
}
