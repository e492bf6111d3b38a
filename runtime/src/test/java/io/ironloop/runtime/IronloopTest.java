package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.ConfigurationException;
import io.ironloop.runtime.internal.state.CompletionFile;

/** The DeLIA API on in-JVM ranks: recovery, gates, settings, completion, rank-count changes. */
class IronloopTest {
    private static final Map<String, Object> SETTINGS = Map.of("size", InJvmJob.SIZE, "app", "test");

    @TempDir
    Path dir;

    private long reference(int ranks, int iterations) throws Exception {
        InJvmJob.Outcome ref = new InJvmJob(Files.createTempDirectory(dir, "ref")).run(ranks, iterations, -1, SETTINGS);
        assertThat(ref.errors()).isEmpty();
        assertThat(ref.checksums()).containsOnly(ref.checksum());
        return ref.checksum();
    }

    @Test
    void jobStoppedMidRun_restartResumesFromTheNewestGlobalLine_bitIdentical() throws Exception {
        long expected = reference(3, 12);
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        InJvmJob.Outcome first = job.run(3, 12, 7, SETTINGS);
        assertThat(first.errors()).isEmpty();
        InJvmJob.Outcome second = job.run(3, 12, -1, SETTINGS);
        assertThat(second.errors()).isEmpty();
        assertThat(second.startedAt()).containsOnly(7L);
        assertThat(second.checksums()).containsOnly(expected);
    }

    @Test
    void shortForm_resumeAndEndIteration_restartResumesBitIdentical_likeDeliasCalls() throws Exception {
        long expected = reference(3, 12);
        InJvmJob job = new InJvmJob(dir.resolve("short")).with("CHECKPOINTING_GLOBAL_ITERATION", "2");
        InJvmJob.Outcome first = job.each(3, SETTINGS, ft -> InJvmJob.shortLoop(ft, 12, 7));
        assertThat(first.errors()).isEmpty();
        InJvmJob.Outcome second = job.each(3, SETTINGS, ft -> InJvmJob.shortLoop(ft, 12, -1));
        assertThat(second.errors()).isEmpty();
        assertThat(second.startedAt()).as("the newest line every second iteration before 7").containsOnly(6L);
        assertThat(second.checksums()).containsOnly(expected);
    }

    @Test
    void globalIterationGate_savesEveryNthCall_restartResumesAtTheLastSavedMultiple() throws Exception {
        long expected = reference(2, 10);
        InJvmJob job = new InJvmJob(dir.resolve("ft")).with("CHECKPOINTING_GLOBAL_ITERATION", "3");
        job.run(2, 10, 8, SETTINGS);
        InJvmJob.Outcome second = job.run(2, 10, -1, SETTINGS);
        assertThat(second.startedAt()).containsOnly(6L);
        assertThat(second.checksums()).containsOnly(expected);
    }

    @Test
    void settingsChanged_canRecoverGlobalIsFalse_freshStart_oldLinesKept() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        job.run(2, 10, 5, SETTINGS);
        long oldFiles;
        try (var s = Files.list(dir.resolve("ft").resolve("global"))) {
            oldFiles = s.count();
        }
        InJvmJob.Outcome changed = job.run(2, 4, -1, Map.of("size", InJvmJob.SIZE, "app", "other"));
        assertThat(changed.errors()).isEmpty();
        assertThat(changed.startedAt()).containsOnly(0L);
        try (var s = Files.list(dir.resolve("ft").resolve("global"))) {
            assertThat(s.count()).isGreaterThan(oldFiles);
        }
    }

    @Test
    void completedRun_reportsCompletion_freshStartsOver() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        long sum = job.run(2, 5, -1, SETTINGS).checksum();
        assertThat(CompletionFile.read(dir.resolve("ft"))).get().extracting(Completion::result).isEqualTo("checksum=" + sum);
        Parameters_ p = new Parameters_(job);
        try (Ironloop ft = p.start(1)) {
            assertThat(ft.completion()).get().extracting(Completion::iterations).isEqualTo(5L);
        }
        InJvmJob fresh = new InJvmJob(dir.resolve("ft")).with("FRESH", "true");
        InJvmJob.Outcome again = fresh.run(2, 5, -1, SETTINGS);
        assertThat(again.startedAt()).containsOnly(0L);
        assertThat(again.checksums()).containsOnly(sum);
    }

    @Test
    void localState_savedByAJobOfAnotherSize_isRefusedWithAClearError_recordsAreRedistributed() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft")).with("CHECKPOINTING_TIME_LOCAL", "0");
        InJvmJob.Outcome two = job.each(2, SETTINGS, ft -> {
            long[] record = {10L * ft.rank() + 7};
            ft.registerLocal("record", record);
            assertThat(ft.saveLocal()).isTrue();
            return new long[] {0, 0};
        });
        assertThat(two.errors()).isEmpty();
        InJvmJob.Outcome sameSize = job.each(2, SETTINGS, ft -> {
            long[] record = new long[1];
            ft.registerLocal("record", record);
            assertThat(ft.canRecoverLocal()).isTrue();
            ft.readLocal();
            return new long[] {record[0], 0};
        });
        assertThat(sameSize.errors()).isEmpty();
        assertThat(sameSize.checksums()).containsExactly(7L, 17L);
        try (Ironloop ft = new Parameters_(job).start(1)) {
            assertThatThrownBy(ft::canRecoverLocal).isInstanceOf(IncompatibleRestartException.class)
                    .hasMessageContaining("job of 2 ranks").hasMessageContaining("this job has 1");
            assertThat(ft.readLocalRecords()).extracting(s -> s.longs("record")[0]).containsExactlyInAnyOrder(7L, 17L);
        }
    }

    @Test
    void perRankState_oneRankLostItsNewestLine_everyRankRestoresTheNewestCommonLine_globalToo() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft"));
        InJvmJob.Outcome first = job.each(3, SETTINGS, ft -> perRankLoop(ft, 5));
        assertThat(first.errors()).isEmpty();
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("ft").resolve("rank-00001"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().contains("000005")).toList()) {
                Files.delete(f); // rank 1 died before its line of iteration 5 was durable
            }
        }
        InJvmJob.Outcome second = job.each(3, SETTINGS, ft -> perRankLoop(ft, 8));
        assertThat(second.errors()).isEmpty();
        assertThat(second.startedAt()).as("the global state went back to the common line too").containsOnly(4L);
        assertThat(second.checksums()).as("each rank's counter: one per iteration, none counted twice").containsOnly(8L);
    }

    @Test
    void perRankState_publishInsideAnIterationOrReadGlobalAfterwards_isRefused() throws Exception {
        InJvmJob.Outcome run = new InJvmJob(dir.resolve("ft")).each(1, SETTINGS, ft -> {
            ft.registerLocal("counter", new long[1]);
            assertThat(ft.canRecoverLocal()).isFalse();
            assertThatThrownBy(ft::saveLocal).isInstanceOf(IllegalStateException.class).hasMessageContaining("iteration boundary");
            assertThatThrownBy(ft::readGlobal).as("the recovery line was negotiated against iteration 0")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("before canRecoverLocal()");
            return new long[] {0, 0};
        });
        assertThat(run.errors()).isEmpty();
    }

    /** Counts iterations in per-rank state; returns {counter, iteration resumed from}. */
    private static long[] perRankLoop(Ironloop ft, int iterations) {
        long[] counter = new long[1];
        ft.registerLocal("counter", counter);
        if (ft.canRecoverGlobal()) {
            ft.readGlobal();
        }
        if (ft.canRecoverLocal()) {
            ft.readLocal();
        }
        long started = ft.iteration();
        for (long i = ft.iteration(); i < iterations; i++) {
            counter[0]++;
            ft.group().barrier();
            ft.saveGlobal();
        }
        return new long[] {counter[0], started};
    }

    @Test
    void readLocalRecords_oneRecordDamaged_leftOutInsteadOfFailingTheRestart() throws Exception {
        InJvmJob job = new InJvmJob(dir.resolve("ft")).with("CHECKPOINTING_TIME_LOCAL", "0");
        InJvmJob.Outcome two = job.each(2, SETTINGS, ft -> {
            long[] record = {10L * ft.rank() + 7};
            ft.registerLocal("record", record);
            assertThat(ft.saveLocal()).isTrue();
            return new long[] {0, 0};
        });
        assertThat(two.errors()).isEmpty();
        Path data;
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("ft").resolve("rank-00001"))) {
            data = files.filter(f -> f.toString().endsWith(".ilc")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(data);
        bytes[bytes.length / 2] ^= (byte) 0xff;
        Files.write(data, bytes);

        try (Ironloop ft = new Parameters_(job).start(1)) {
            assertThat(ft.readLocalRecords()).extracting(s -> s.longs("record")[0]).containsExactly(7L);
        }
    }

    @Test
    void unknownKeyAndBadValue_failAtStartWithTheKeyNamed() {
        assertThatThrownBy(() -> new InJvmJob(dir).with("CHECKPOINTING_GLOBAL_ITERATIONS", "2").parameters())
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("CHECKPOINTING_GLOBAL_ITERATIONS");
        assertThatThrownBy(() -> new InJvmJob(dir).with("WORKLOAD_SCHEDULER", "FIFO").parameters())
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("WORKLOAD_SCHEDULER").hasMessageContaining("FIFO");
    }

    /** A single-rank runtime over a job's parameters. */
    private record Parameters_(InJvmJob job) {
        Ironloop start(int ranks) {
            io.ironloop.group.InJvmCluster cluster = io.ironloop.group.InJvmCluster.open("single", ranks);
            return Ironloop.builder().parameters(job.parameters()).settings(SETTINGS).joinWith(l -> cluster.group(0)).start();
        }
    }
}
