package io.ironloop.cli;

import static io.ironloop.cli.KeptCheckpoint.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.KeptCheckpoint.Run;
import io.ironloop.config.Parameters;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.examples.blocks.heat.HeatBlock;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ls --levels} over the lines of a block loop with XOR parity: what the parity in the lines adds. */
class LsLevelsParityTest {
    @TempDir
    Path dir;

    @Test
    void lsLevels_xorParityInTheLines_saysWhatALineSurvives_andListsALineTheParityRebuilds() throws Exception {
        Path folder = dir.resolve("ckpt");
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, io.ironloop.core.Schedule.every(4))
                .with(BlockKeys.DISK_EVERY, io.ironloop.core.Schedule.every(1)).with(BlockKeys.MEMORY_SCHEME, BlockKeys.MemoryScheme.XOR)
                .with(BlockKeys.ERASURE_K, 2L).with(io.ironloop.core.EngineKeys.FT_FOLDER, folder);
        // three ranks, one XOR group {0, 1, 2}, 10 iterations: lines at iterations 8 and 10 (RETAIN_LINES 2)
        runHeat("ls-parity", 3, r -> p);
        LineInfo newest;
        try (Store store = Store.directory(folder)) {
            newest = StoreCatalog.of(store).lines(StoreCatalog.rankSeries(1)).stream().filter(l -> l.iteration() == 10).findFirst()
                    .orElseThrow();
        }
        Files.delete(folder.resolve(newest.dataFile())); // world rank 1 lost its line of iteration 10
        Files.delete(folder.resolve(newest.dataFile().replaceAll("\\.ilc$", ".commit")));
        Path params = Files.writeString(dir.resolve("ft.json"), "{\"FT_FOLDER\": \"" + folder + "\", \"MEMORY_SCHEME\": \"xor\", \"ERASURE_K\": 2}");

        Run r = run("ls", "--levels", "--params", params);

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(2)).matches("10\\s+3\\s+local\\s+any processes \\(their hosts intact\\), once world ranks 1' missing lines are"
                + " rebuilt from the xor parity in their groups' lines \\(on restart\\)");
        assertThat(lines.get(3)).matches("8\\s+3\\s+local\\s+any processes \\(their hosts intact\\); with xor parity in its lines, also"
                + " the loss or damage of 1 rank\\(s\\)' lines per group of 3");
        assertThat(lines).hasSize(4);
    }

    @Test
    void tools_overAStorePerHost_readEveryHostsStore_andLsSaysWhichHostLossesALineSurvives() throws Exception {
        Path folder = dir.resolve("ckpt");
        // four ranks on two hosts, XOR groups of 2 across the hosts ({0, 2} and {1, 3}), each host's lines in ckpt/host-H
        runHeat("ls-hosts", 4, r -> Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, io.ironloop.core.Schedule.every(4))
                .with(BlockKeys.DISK_EVERY, io.ironloop.core.Schedule.every(1)).with(BlockKeys.MEMORY_SCHEME, BlockKeys.MemoryScheme.XOR)
                .with(BlockKeys.ERASURE_K, 1L).with(io.ironloop.core.EngineKeys.FT_FOLDER, folder).with(BlockKeys.DISK_PER_HOST, true)
                .with(BlockKeys.HOST, "host-" + r / 2));
        assertThat(folder.resolve("host-1").resolve(StoreCatalog.rankSeries(3))).isDirectory();
        Path params = Files.writeString(dir.resolve("ft.json"), "{\"FT_FOLDER\": \"" + folder + "\", \"MEMORY_SCHEME\": \"xor\","
                + " \"ERASURE_K\": 1, \"DISK_PER_HOST\": true}");

        Run levels = run("ls", "--levels", "--params", params);
        assertThat(levels.exit()).as(levels.err()).isZero();
        assertThat(levels.out().lines().toList().get(2)).matches("10\\s+4\\s+local\\s+any processes \\(their hosts intact\\); with xor"
                + " parity in its lines, also the loss or damage of 1 rank\\(s\\)' lines per group of 2; the loss of any 1 of its 2 host"
                + " stores \\(host-0, host-1\\)");
        Run ls = run("ls", "--level", "local", "--params", params);
        assertThat(ls.exit()).as(ls.err()).isZero();
        assertThat(ls.out()).contains("rank-00000", "rank-00003").containsPattern("10\\s+4\\s+0-3\\s+none");
        Run listed = run("ls", folder);
        assertThat(listed.out()).as("a folder of host stores, listed as one").isEqualTo(ls.out());
        Run verify = run("verify", "--level", "local", "--params", params);
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("store " + folder.resolve("host-0") + ":", "store " + folder.resolve("host-1") + ":",
                "every checksum holds");
        Run inspect = run("inspect", "--level", "local", "--params", params, "rank-00003");
        assertThat(inspect.exit()).as(inspect.err()).isZero();
        assertThat(inspect.out()).contains("rank-00003/line-");

        // host-1's store lost: ranks 2 and 3 are rebuilt from their groups' parity on host-0, and nothing more may go
        io.ironloop.Folders.deleteTree(folder.resolve("host-1"));
        Run after = run("ls", "--levels", "--params", params);
        assertThat(after.out().lines().toList().get(2)).matches("10\\s+4\\s+local\\s+any processes \\(their hosts intact\\), once world"
                + " ranks 2-3' missing lines are rebuilt from the xor parity in their groups' lines \\(on restart\\); not the loss of any of"
                + " its 1 host stores \\(host-0\\)");
    }

    /** Runs the heat example's block loop for 10 iterations on {@code ranks} ranks of an in-JVM cluster. */
    private static void runHeat(String job, int ranks, java.util.function.IntFunction<Parameters> parameters) throws Exception {
        HeatBlocks heat = new HeatBlocks(HeatBlocksConfig.test());
        try (InJvmCluster c = InJvmCluster.open(job, ranks)) {
            ExecutorService pool = Executors.newFixedThreadPool(ranks);
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                done.add(pool.submit(() -> {
                    try (BlockLoop<HeatBlock> loop = BlockLoop.builder(heat.layout(), heat::create).parameters(parameters.apply(rank))
                            .group(c.group(rank)).settings(heat.settings()).start()) {
                        loop.run(10, heat::step);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(2, TimeUnit.MINUTES);
            }
            pool.shutdownNow();
        }
    }
}
