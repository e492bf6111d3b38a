package io.ironloop.benchmarks.group;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Open MPI's {@code MPI_Allreduce} of the same doubles on the same number of ranks of this machine, the reference the
 * issue compares the group's large allreduce with: {@code mpi_allreduce.c} (a resource beside this class) compiled with
 * {@code mpicc} and run under {@code mpirun}, over TCP ({@code --mca btl tcp,self}) and over shared memory
 * ({@code vader,self}). Only where {@code mpicc} and {@code mpirun} are installed (Debian: {@code openmpi-bin},
 * {@code libopenmpi-dev}); otherwise the figures are left out and the reason is logged.
 */
final class MpiAllreduce {
    private static final Pattern MEDIAN = Pattern.compile("\"mpi_allreduce_s\":\\s*([0-9.eE+-]+)");

    private final Path work;
    private final Path program;

    private MpiAllreduce(Path work, Path program) {
        this.work = work;
        this.program = program;
    }

    /** The compiled reference, or empty (with the reason on {@code progress}) where Open MPI is not installed. */
    static Optional<MpiAllreduce> compile(PrintWriter progress) throws IOException, InterruptedException {
        Optional<Path> mpicc = onPath("mpicc");
        if (mpicc.isEmpty() || onPath("mpirun").isEmpty()) {
            progress.println("bench group: no Open MPI reference (mpicc or mpirun not on PATH; Debian: apt-get install openmpi-bin libopenmpi-dev)");
            return Optional.empty();
        }
        Path work = Files.createTempDirectory("ironloop-bench-mpi");
        Path source = work.resolve("mpi_allreduce.c");
        try (InputStream in = MpiAllreduce.class.getResourceAsStream("mpi_allreduce.c")) {
            Files.copy(in, source);
        }
        Path program = work.resolve("mpi_allreduce");
        run(List.of(mpicc.get().toString(), "-O2", "-o", program.toString(), source.toString()), "mpicc");
        return Optional.of(new MpiAllreduce(work, program));
    }

    /** The median over {@code repetitions} of the slowest rank's time of one allreduce of {@code bytes}, in seconds. */
    double seconds(String btl, int ranks, long bytes, int repetitions) throws IOException, InterruptedException {
        String out = run(List.of("mpirun", "--allow-run-as-root", "--oversubscribe", "-np", Integer.toString(ranks), "--mca", "btl", btl,
                program.toString(), Long.toString(bytes), Integer.toString(repetitions)), "mpirun");
        Matcher m = MEDIAN.matcher(out);
        if (!m.find()) {
            throw new IOException("the Open MPI reference printed no mpi_allreduce_s: " + out);
        }
        return Double.parseDouble(m.group(1));
    }

    void delete() throws IOException {
        try (Stream<Path> files = Files.walk(work)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static String run(List<String> command, String what) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(command);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException(what + " did not finish within 10 minutes");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(what + " exited with " + p.exitValue() + ": " + text.strip());
        }
        return text;
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

}
