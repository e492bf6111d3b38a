package io.ironloop.cli;

import io.ironloop.cli.view.ProgressBar;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.StoreCatalog.Problem;
import io.ironloop.core.StoreCatalog.VerifyReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop verify PATH} (or {@code ironloop verify --level L}): checks every checksum of every store below a directory, or of a series, a line or
 * one file, and decodes every chunk, following differential references into earlier files. Exit 0 when all hold;
 * 1 naming each bad file and chunk; 2 when nothing was there to verify.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check every checksum under PATH: commit records, and every chunk of every data file, following"
                + " differential references into earlier files."
                + " Every chunk is also decoded (decompressed to exactly its raw length), as a restore would.",
            "With --level L, the store of level L (local, shared or s3) as the run's parameters configure it; with DISK_PER_HOST,"
                + " --level local verifies each host's store below FT_FOLDER.",
            "PATH is a store directory, or any directory above stores (each store found below it is verified and"
                + " named), a series directory, a line (DIR/rank-00000/line-000000000003), or one .ilc data file or"
                + " .commit record.",
            "Exit status 0 when every chunk holds; 1 otherwise, each bad file and chunk printed with its entry,"
                + " chunk index, offset, and stored versus computed CRC32C or why it does not decode; 2 when PATH"
                + " holds no checkpoint store or no checkpoint file (nothing verified is never success)."})
final class VerifyCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "0..1", description = "Store, series, line, data file or commit record; omit it"
            + " with --level.")
    Path path;

    @Mixin
    LevelOptions level = new LevelOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (level.given() == (path != null)) {
            throw CheckpointPath.usage(spec, "give either PATH or --level L");
        }
        PrintWriter out = spec.commandLine().getOut();
        List<VerifyReport> reports = new ArrayList<>();
        if (level.local()) { // one store, or with DISK_PER_HOST each host's, named by its folder below FT_FOLDER
            LocalLevel local = LocalLevel.of(level.parameters());
            reports.addAll(verifyStores(out, local.folder(), List.copyOf(local.stores().values())));
            return summary(out, reports, "level local (" + local.folder() + ")");
        }
        if (level.given()) {
            try (Store store = level.open(spec)) {
                VerifyReport report = StoreCatalog.of(store).verifyStore();
                print(out, report, "");
                reports.add(report);
                return summary(out, reports, "level " + level.level + " (" + store.location() + ")");
            }
        }
        CheckpointPath target = CheckpointPath.resolve(path, spec);
        if (target.kind() == CheckpointPath.Kind.STORE) {
            List<Path> stores = CheckpointPath.storesUnder(target.root());
            if (stores.isEmpty()) {
                throw CheckpointPath.usage(spec, "no checkpoint store under " + path + ": give a store directory (FT_FOLDER, one"
                        + " directory per series such as rank-00000) or a directory above one");
            }
            reports.addAll(verifyStores(out, target.root(), stores));
        } else {
            StoreCatalog catalog = StoreCatalog.of(target.openStore());
            VerifyReport report = switch (target.kind()) {
                case SERIES -> verifySeries(catalog, target.series());
                case LINE -> catalog.verifyLine(target.series(), target.sequence());
                default -> catalog.verifyFile(target.fileName());
            };
            print(out, report, "");
            reports.add(report);
        }
        return summary(out, reports, path.toString());
    }

    /** Verifies each of {@code stores} (below {@code base}), printing its problems and a line per store. */
    private static List<VerifyReport> verifyStores(PrintWriter out, Path base, List<Path> stores) throws IOException {
        List<VerifyReport> reports = new ArrayList<>();
        ProgressBar bar = ProgressBar.start("verify: store", stores.size()); // only on a terminal
        for (Path root : stores) {
            bar.done(reports.size()); // shown while this store is verified, cleared before its lines are printed
            VerifyReport report;
            try (Store store = Store.directory(root)) {
                report = StoreCatalog.of(store).verifyStore();
            }
            bar.clear();
            String below = base.relativize(root).toString();
            print(out, report, below.isEmpty() ? "" : below + "/");
            out.println("store " + root + ": " + files(report) + " file(s), " + report.chunks() + " chunk(s), "
                    + report.problems().size() + " problem(s)");
            reports.add(report);
        }
        bar.close();
        return reports;
    }

    /** Prints the summary line; the exit status. */
    private int summary(PrintWriter out, List<VerifyReport> reports, String where) {
        long files = reports.stream().mapToLong(VerifyCommand::files).sum();
        long chunks = reports.stream().mapToLong(VerifyReport::chunks).sum();
        long problems = reports.stream().mapToLong(r -> r.problems().size()).sum();
        if (files == 0) {
            throw CheckpointPath.usage(spec, "no checkpoint file under " + where + ": its series hold no line yet, so nothing"
                    + " was verified");
        }
        String summary = "verified " + files + " file(s), " + chunks + " chunk(s) under " + where;
        if (problems == 0) {
            out.println(summary + ": every checksum holds and every chunk decodes");
            return Main.OK;
        }
        out.println(summary + ": " + problems + " problem(s)");
        return Main.FAILURE;
    }

    /** Prints each problem, its file names prefixed with {@code prefix} (where the store lies below PATH). */
    private static void print(PrintWriter out, VerifyReport report, String prefix) {
        for (Problem p : report.problems()) {
            out.println("BAD " + describe(p, prefix));
        }
    }

    /** Distinct files a report examined (a data file referenced by several lines counts once). */
    private static long files(VerifyReport report) {
        return new LinkedHashSet<>(report.files()).size();
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
        ProgressBar bar = ProgressBar.start("verify: " + series, targets.size()); // only on a terminal
        for (String f : targets) {
            VerifyReport r = catalog.verifyFile(f);
            bar.step();
            files.addAll(r.files());
            problems.addAll(r.problems());
            chunks += r.chunks();
        }
        bar.close();
        return new VerifyReport(files, chunks, problems);
    }

    static String describe(Problem p, String prefix) {
        StringBuilder s = new StringBuilder(prefix).append(p.file()).append(": ");
        if (p.entry() != null) {
            s.append("entry '").append(p.entry()).append("' chunk ").append(p.chunk()).append(", ");
        }
        s.append("offset ").append(p.offset());
        if (!p.location().equals(p.file())) {
            s.append(" in ").append(prefix).append(p.location());
        }
        if (p.checksumMismatch()) {
            s.append(String.format(": stored CRC32C %08x, computed %08x", p.storedCrc(), p.computedCrc()));
        } else {
            s.append(": ").append(p.message());
        }
        return s.toString();
    }
}
