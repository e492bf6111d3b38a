package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two real rank JVMs without a supervisor: the launcher's rank contract, output, real SIGSTOP and SIGKILL, cleanup. */
class UnsupervisedRanksTest {
    @TempDir
    Path dir;

    @Test
    void start_ranksGetTheContract_faultsAreTheCallers_closeKillsEvenAStoppedRankAndDeletesTheSecret() throws Exception {
        String job = "raw-" + ProcessHandle.current().pid();
        Map<Integer, String> said = new ConcurrentHashMap<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        UnsupervisedRanks ranks = UnsupervisedRanks.start(2, job, JobProcesses.SMALL_JVM, EchoRank.class.getName(), List.of("a", "b"),
                dir, new PrintStream(err, true, StandardCharsets.UTF_8), (attempt, rank, stderr, line) -> {
                    if (!stderr) {
                        said.put(rank, line);
                    }
                });
        long stopped;
        Path secret;
        try {
            await(() -> said.size() == 2 && err.toString(StandardCharsets.UTF_8).contains("[1] rank 1 says hello"));
            String[] zero = said.get(0).split(" ");
            String[] one = said.get(1).split(" ");
            assertThat(zero).containsExactly("RANK", "0", "2", "0", job, zero[5], "a,b");
            assertThat(one).startsWith("RANK", "1", "2", "1", job);
            secret = Path.of(zero[5]);
            assertThat(secret).exists();
            assertThat(ranks.exitStatus(0)).isEmpty();

            ranks.kill(0);
            await(() -> ranks.exitStatus(0).isPresent());
            assertThat(ranks.exitStatus(0)).hasValue(137);

            ranks.signal(1, "STOP");
            await(() -> ranks.isStopped(1));
            assertThat(ranks.isAlive(1)).as("a stopped rank is left alone").isTrue();
            stopped = ranks.pid(1);
        } finally {
            ranks.close();
        }
        assertThat(ProcessHandle.of(stopped).map(ProcessHandle::isAlive).orElse(false)).as("the stopped rank is gone").isFalse();
        assertThat(Files.exists(secret)).as("the job secret is deleted").isFalse();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited 60 s").isNegative();
            Thread.sleep(20);
        }
    }
}
