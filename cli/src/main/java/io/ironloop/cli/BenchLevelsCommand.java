package io.ironloop.cli;

import io.ironloop.benchmarks.MachineMemory;
import io.ironloop.benchmarks.level.LevelsBench;
import io.ironloop.config.Units;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench levels}. */
@Command(name = "levels", mixinStandardHelpOptions = true,
        description = {"Every protection level on the same snapshots: N ranks (threads of one bench JVM, loopback TCP between them),",
            "SIZE bytes of state each. Per level (partner, xor, rs, disk, shared, s3 on an in-process S3 server) the checkpoint",
            "GB/s of all ranks together and the seconds to give back a lost rank's snapshot; XOR and RS encode GB/s per core",
            "(CPU time); references from the same run: memcpy, raw loopback TCP, raw durable write. Median of the repetitions",
            "after one warm-up. At -n 4 --size 256MiB about 11 minutes on 2 cores under a load average of 30-40."})
final class BenchLevelsCommand implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "4", description = "Ranks, 2 to 16. Default ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = "--size", defaultValue = "256MiB", description = "State per rank, a multiple of 1 MiB (units: MiB, GiB). Default ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions of every figure after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--dir", description = "Directory for the disk, shared and raw-write files (default: a new temporary directory; emptied and removed).")
    Path dir;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        if (!BenchCommand.enoughRepetitions("levels", repetitions, err)) {
            return Main.USAGE;
        }
        Path where = dir != null ? dir.resolve("ironloop-bench-levels") : Files.createTempDirectory("ironloop-bench-levels");
        LevelsBench.Options o;
        try {
            o = new LevelsBench.Options(ranks, Units.parseSize(size), repetitions, where);
        } catch (IllegalArgumentException e) {
            err.println("ironloop bench levels: " + e.getMessage());
            return Main.USAGE;
        }
        long needed = LevelsBench.directMemoryNeeded(o) + LevelsBench.heapNeeded(o);
        long available = MachineMemory.available();
        if (needed > available) {
            err.printf("ironloop bench levels: %d ranks × %s need about %d MiB of memory, %d MiB are available%n", ranks, size,
                    needed >> 20, available >> 20);
            return Main.USAGE;
        }
        Map<String, Object> figures;
        try {
            figures = LevelsBench.run(o, err);
        } catch (java.io.IOException e) {
            err.println("ironloop bench levels: could not measure: " + e.getMessage());
            return Main.FAILURE;
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return Main.OK;
    }
}
