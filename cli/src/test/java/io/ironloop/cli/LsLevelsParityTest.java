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
        HeatBlocks heat = new HeatBlocks(HeatBlocksConfig.test());
        // three ranks, one XOR group {0, 1, 2}, 10 iterations: lines at iterations 8 and 10 (RETAIN_LINES 2)
        try (InJvmCluster c = InJvmCluster.open("ls-parity", 3)) {
            ExecutorService pool = Executors.newFixedThreadPool(3);
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                int rank = r;
                done.add(pool.submit(() -> {
                    try (BlockLoop<HeatBlock> loop = BlockLoop.builder(heat.layout(), heat::create).parameters(p).group(c.group(rank))
                            .settings(heat.settings()).start()) {
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
}
