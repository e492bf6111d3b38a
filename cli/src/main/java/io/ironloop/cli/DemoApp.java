package io.ironloop.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The applications {@code ironloop demo} can run, each a rank main class of the examples module that prints
 * {@code result sha256=<hex>} on rank 0, with its arguments per size and the faults of a demo without
 * {@code --fail}/{@code --preempt}. Those faults are scheduled by progress (an iteration), never by wall-clock
 * time, so that each fires however fast or loaded the machine is: a SIGTERM at an early iteration, then a
 * SIGKILL at a later one, each in its own attempt.
 */
enum DemoApp {
    /** The full-waveform inversion ({@code io.ironloop.examples.fwi.FwiRank}). */
    FWI("io.ironloop.examples.fwi.FwiRank", "full-waveform inversion",
            new RankSizes("48 x 32 cells, 6 shots, 5 iterations", 4, "160 x 80 cells, 16 shots, 6 iterations", 5)) {
        @Override
        List<String> defaultPreempts(int ranks, String size) {
            return List.of(victim(ranks, 2) + "@it2");
        }
    },
    /** DeLIA's quick-start program ({@code io.ironloop.examples.quickstart.QuickstartRank}). */
    QUICKSTART("io.ironloop.examples.quickstart.QuickstartRank", "DeLIA's quick-start loop (Listing 8)", new RankSizes(null, 8, null, 14)) {
        @Override
        List<String> arguments(String size) {
            // the pause per iteration stands for computation
            return size.equals("test") ? List.of("2000", "12", "300") : List.of("100000", "20", "500");
        }

        @Override
        String describe(String size) {
            List<String> a = arguments(size);
            return a.get(0) + " values per rank, " + a.get(1) + " iterations of " + a.get(2) + " ms";
        }

        @Override
        List<String> defaultPreempts(int ranks, String size) {
            return List.of(victim(ranks, 2) + "@it" + (size.equals("test") ? 4 : 6));
        }
    },
    /**
     * 2-D heat (Jacobi) on blocks ({@code io.ironloop.examples.blocks.heat.HeatBlocksRank}): a killed rank is
     * recovered inside the job from its partner's in-memory copy.
     */
    HEAT("io.ironloop.examples.blocks.heat.HeatBlocksRank", "2-D heat (Jacobi) on blocks with halo exchange",
            new RankSizes("64 x 64 cells in 4 x 4 blocks, 200 steps", 123, "512 x 512 cells in 8 x 8 blocks, 1000 steps", 617)),
    /**
     * 2-D Jacobi relaxation (the heat example) on the loop skeleton ({@code io.ironloop.examples.skeleton.HeatSkeletonRank}):
     * border exchange between row slabs; a killed rank is recovered inside the job through the same recovery component.
     */
    JACOBI("io.ironloop.examples.skeleton.HeatSkeletonRank", "2-D Jacobi relaxation (heat) on the loop skeleton, border exchange",
            new RankSizes("64 x 64 cells in 8 row slabs, 200 steps", 123, "512 x 512 cells in 8 row slabs, 1000 steps", 617)) {
        @Override
        int maxRanks() {
            return io.ironloop.examples.skeleton.HeatSkeleton.PARTS;
        }
    },
    /**
     * A matrix power by data circulation on the loop skeleton ({@code io.ironloop.examples.circulation.MatrixPowerSkeletonRank}):
     * blocks of columns travel round the parts; a killed rank is recovered inside the job.
     */
    CIRCULATION("io.ironloop.examples.circulation.MatrixPowerSkeletonRank", "matrix power A^r X by data circulation on the loop skeleton",
            new RankSizes("n = 64, 8 parts, 4 rounds (32 steps)", 19, "n = 384, 8 parts, 24 rounds (192 steps)", 117)) {
        @Override
        int maxRanks() {
            return io.ironloop.examples.circulation.MatrixPower.preset("demo", 0).parts();
        }
    },
    /**
     * A gas-storage valuation (the FT-GReLoSSS paper's Swing pattern) on the loop skeleton
     * ({@code io.ironloop.examples.swing.GasStorageSkeletonRank}): backward induction over price scenarios, subdomains
     * that change every step; a killed rank is recovered inside the job.
     */
    SWING("io.ironloop.examples.swing.GasStorageSkeletonRank", "gas-storage valuation (Swing) on the loop skeleton, changing subdomains",
            new RankSizes("24 steps, 64 price paths, 24 stock levels, 8 parts", 15, "365 steps, 1000 price paths, 101 stock levels, 8 parts", 200)) {
        @Override
        int maxRanks() {
            return io.ironloop.examples.swing.GasStorage.preset("demo", 0).parts();
        }
    },
    /**
     * D2Q9 lattice-Boltzmann flow past a cylinder on blocks ({@code io.ironloop.examples.blocks.lbm.LbmRank}), the
     * waLBerla paper's LBM case: a killed rank is recovered inside the job.
     */
    LBM("io.ironloop.examples.blocks.lbm.LbmRank", "D2Q9 lattice-Boltzmann flow past a cylinder on blocks",
            new RankSizes("64 x 32 cells in 4 x 2 blocks, 100 steps", 63, "320 x 80 cells in 8 x 2 blocks, 600 steps", 377)),
    /** Sparse matrix-vector products on one device (the CPPC + HPL paper's SHOC Spmv). */
    SPMV(DeviceDemo.MAIN_CLASS, "sparse matrix-vector products on one device (SHOC Spmv)", null),
    /** Floyd–Warshall on one device (the CPPC + HPL paper's Floyd). */
    FLOYD(DeviceDemo.MAIN_CLASS, "Floyd-Warshall shortest paths on one device", null),
    /** SUMMA matrix multiplication over several devices, malleable (the CPPC + HPL paper's Summa). */
    SUMMA(DeviceDemo.MAIN_CLASS, "SUMMA matrix multiplication over devices (malleable)", null),
    /** A shallow-water simulation over several devices, pseudo-malleable (after the CPPC + HPL paper's Shwalls). */
    SHALLOW_WATER(DeviceDemo.MAIN_CLASS, "shallow-water simulation over devices (pseudo-malleable)", null);

    /**
     * A rank app's two sizes: the problem in words and the iteration its default SIGKILL fires at (on rank 1, or the
     * last rank of fewer); the app takes the size's name as its one argument.
     */
    private record RankSizes(String testWords, int testFailAt, String demoWords, int demoFailAt) {
        String words(String size) {
            return size.equals("test") ? testWords : demoWords;
        }

        int failAt(String size) {
            return size.equals("test") ? testFailAt : demoFailAt;
        }
    }

    private final String mainClass;
    private final String title;
    private final RankSizes sizes; // null for the device apps, whose sizes DeviceDemo knows

    DemoApp(String mainClass, String title, RankSizes sizes) {
        this.mainClass = mainClass;
        this.title = title;
        this.sizes = sizes;
    }

    String mainClass() {
        return mainClass;
    }

    String title() {
        return title;
    }

    /** The rank arguments for {@code test} or {@code demo} size. */
    List<String> arguments(String size) {
        return sizes != null ? List.of(size) : DeviceDemo.arguments(this, size);
    }

    /** The problem size in words. */
    String describe(String size) {
        return sizes != null ? sizes.words(size) : DeviceDemo.describe(this, size);
    }

    /** {@code --fail} items of a demo given no faults. */
    List<String> defaultFails(int ranks, String size) {
        return sizes != null ? List.of(victim(ranks, 1) + "@" + sizes.failAt(size)) : DeviceDemo.defaultFails(this, size);
    }

    /**
     * {@code --preempt} items of a demo given no faults: none for the block and skeleton apps (they recover a loss
     * online; a SIGTERM is not part of that scenario) nor for the device apps (their scenario is two kills).
     */
    List<String> defaultPreempts(int ranks, String size) {
        return List.of();
    }

    /** The most ranks the app runs on (the skeleton apps: their parts). */
    int maxRanks() {
        return Integer.MAX_VALUE;
    }

    /** The rank program's arguments, in words. */
    String usage() {
        return onDevices() || this == FWI || this == QUICKSTART ? "as for --size test or demo below"
                : io.ironloop.examples.blocks.BlockRankOptions.USAGE;
    }

    /** The app's name as the command line takes it, e.g. {@code fwi} or {@code shallow-water}. */
    String commandName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether this is a one-process application on heterogeneous devices (takes --device, --devices, --restart-devices). */
    boolean onDevices() {
        return mainClass.equals(DeviceDemo.MAIN_CLASS);
    }

    /** The app named {@code name} on the command line, if any. */
    static java.util.Optional<DemoApp> named(String name) {
        return Arrays.stream(values()).filter(a -> a.commandName().equals(name)).findFirst();
    }

    /** The apps' names as the command line takes them, e.g. {@code fwi, quickstart, heat, jacobi or lbm}. */
    static String names() {
        List<String> n = Arrays.stream(values()).map(DemoApp::commandName).toList();
        return String.join(", ", n.subList(0, n.size() - 1)) + " or " + n.get(n.size() - 1);
    }

    private static int victim(int ranks, int preferred) {
        return Math.min(preferred, ranks - 1);
    }
}
