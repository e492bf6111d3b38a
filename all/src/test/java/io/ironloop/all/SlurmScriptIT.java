package io.ironloop.all;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.group.launch.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/slurm/ironloop.sbatch}, run by bash as Slurm runs a batch script, with the template application:
 * Slurm itself is not installed here, so {@code srun}, {@code scontrol} and {@code sinfo} are small stand-ins on the
 * PATH. The stand-in {@code srun} starts the ranks the way srun does: directly, one process per task, with
 * {@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LOCALID}, {@code SLURM_NODELIST},
 * {@code SLURM_TASKS_PER_NODE}, {@code SLURM_STEP_ID} (and the job's variables inherited), so the group finds its
 * peers from Slurm's variables; it passes on the first failing task's status and, as {@code --kill-on-bad-exit}
 * asks, sends SIGTERM to the others. What is not tested here: real Slurm (its signal delivery, requeue, node
 * exclusion and the time limit), more than one host.
 */
class SlurmScriptIT {
    private static final int TASKS = 2;
    private static final int CELLS = 300;
    private static final int STEPS = 12;
    private static final Pattern LINE = Pattern.compile("line-(\\d+)\\.commit");

    private final String marker = "slurm-it-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        Processes.killMarked("-Dironloop.test=" + marker);
    }

    @Test
    void rankKilledInAStep_scriptStartsAnotherSrunStep_resumesAndPrintsTheFailureFreeResult() throws Exception {
        Process script = startScript(Map.of());
        long[] ranks = awaitProgress(script, 0);
        ProcessHandle.of(ranks[1]).ifPresent(ProcessHandle::destroyForcibly); // kill -9, as a lost node would
        Processes.Result r = Processes.await(script, dir, "job", Duration.ofMinutes(3));

        assertThat(r.status()).as(r.describe()).isZero();
        assertThat(r.stdout().strip()).as(r.describe()).isEqualTo(TemplateBuild.expectedResult(TASKS, CELLS, STEPS));
        assertThat(Files.readString(dir.resolve("slurm/step-0.status")).strip()).as("the first step failed").isNotEqualTo("0");
        assertThat(Files.readString(dir.resolve("slurm/step-1.status")).strip()).isEqualTo("0");
        assertThat(r.stderr()).contains("step failed with status", "restarting from the checkpoints (1 of 3)")
                .containsPattern("global state restored at iteration [1-9]");
        assertThat(dir.resolve("slurm/scontrol.log")).doesNotExist();
    }

    @Test
    void usr1BeforeTheTimeLimit_ranksSaveAndScriptRequeues_requeuedJobResumes() throws Exception {
        Process script = startScript(Map.of());
        long[] ranks = awaitProgress(script, 0);
        for (long pid : ranks) {
            Processes.signal(pid, "USR1"); // what --signal=USR1@120 sends to every task
        }
        Processes.Result first = Processes.await(script, dir, "job", Duration.ofMinutes(2));
        assertThat(first.status()).as(first.describe()).isZero();
        assertThat(Files.readString(dir.resolve("slurm/step-0.status")).strip()).as(first.describe()).isEqualTo("138");
        assertThat(Files.readString(dir.resolve("slurm/scontrol.log")).strip()).isEqualTo("requeue 4242");
        assertThat(first.stdout()).doesNotContain("result");
        assertThat(first.stderr()).contains("the ranks saved on SIGUSR1", "received SIGUSR1: saving local state");

        // Slurm starts the requeued job's script again, with SLURM_RESTART_COUNT=1
        Processes.Result again = Processes.await(startScript(Map.of("SLURM_RESTART_COUNT", "1")), dir, "job", Duration.ofMinutes(2));
        assertThat(again.status()).as(again.describe()).isZero();
        assertThat(again.stdout().strip()).isEqualTo(TemplateBuild.expectedResult(TASKS, CELLS, STEPS));
        assertThat(again.stderr()).containsPattern("global state restored at iteration [1-9]");
    }

    /** Starts the batch script as Slurm would, in an allocation of one node with TASKS tasks. */
    private Process startScript(Map<String, String> extra) throws Exception {
        Path app = TemplateBuild.appJar();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path state = Files.createDirectories(dir.resolve("slurm"));
        executable(bin.resolve("srun"), FAKE_SRUN);
        executable(bin.resolve("scontrol"), "#!/bin/bash\necho \"$*\" >> \"$FAKE_SLURM_STATE/scontrol.log\"\n");
        executable(bin.resolve("sinfo"), "#!/bin/bash\nexit 0\n"); // no node is down
        if (!Files.exists(dir.resolve("ironloop.json"))) {
            Files.copy(TemplateBuild.ROOT.resolve("examples/slurm/ironloop.json"), dir.resolve("ironloop.json"));
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put("FAKE_SLURM_STATE", state.toString());
        env.put("SLURM_JOB_ID", "4242");
        env.put("SLURM_JOB_NUM_NODES", "1");
        env.put("SLURM_NTASKS", Integer.toString(TASKS));
        env.put("SLURM_JOB_NODELIST", "localhost");
        env.put("SLURM_SUBMIT_DIR", dir.toString());
        env.put("IRONLOOP_ALL_JAR", TemplateBuild.ALL_JAR.toString());
        env.put("IRONLOOP_APP_JAR", app.toString());
        env.put("IRONLOOP_JAVA", Processes.java());
        env.put("IRONLOOP_JAVA_OPTS", Processes.SMALL_JVM + " -Dironloop.test=" + marker);
        // one host: bind loopback, on ports the kernel says are free (rank i binds GROUP_BIND_PORT + i)
        env.put("IRONLOOP_GROUP_BIND_ADDRESS", "127.0.0.1");
        env.put("IRONLOOP_GROUP_BIND_PORT", Integer.toString(FreePorts.consecutive(TASKS)));
        env.putAll(extra);
        return Processes.start(List.of("bash", TemplateBuild.ROOT.resolve("examples/slurm/ironloop.sbatch").toString(),
                Integer.toString(CELLS), Integer.toString(STEPS), "200"), dir, env, "job");
    }

    /** Waits until step {@code step}'s ranks have saved the global state at iteration 3 or later; returns their PIDs. */
    private long[] awaitProgress(Process script, int step) throws Exception {
        Path pids = dir.resolve("slurm/step-" + step + ".pids");
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (!script.isAlive()) {
                throw new AssertionError("the script ended before the ranks made progress: "
                        + new Processes.Result(script.exitValue(), dir.resolve("job.out"), dir.resolve("job.err")).describe());
            }
            if (Files.exists(pids) && newestGlobalLine().orElse(-1) >= 3) {
                return Files.readAllLines(pids).stream().mapToLong(Long::parseLong).toArray();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no global line 3 within 2 minutes");
    }

    private Optional<Integer> newestGlobalLine() throws IOException {
        Path global = dir.resolve("checkpoints/global");
        if (!Files.isDirectory(global)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(global)) {
            return files.map(f -> LINE.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .map(m -> Integer.parseInt(m.group(1))).max(Integer::compare);
        }
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }

    /** srun as this test needs it: the ranks of one step on this machine, with Slurm's per-task variables. */
    private static final String FAKE_SRUN = """
            #!/bin/bash
            state=${FAKE_SLURM_STATE:?}
            ntasks=1; kill_on_bad_exit=0
            while [ $# -gt 0 ]; do
                case $1 in
                    --ntasks=*) ntasks=${1#*=} ;;
                    --kill-on-bad-exit=*) kill_on_bad_exit=${1#*=} ;;
                    --*) ;;
                    *) break ;;
                esac
                shift
            done
            step=$(cat "$state/steps" 2>/dev/null || echo 0)
            echo $((step + 1)) > "$state/steps"
            pids=()
            for ((r = 0; r < ntasks; r++)); do
                SLURM_PROCID=$r SLURM_LOCALID=$r SLURM_NODEID=0 SLURM_NTASKS=$ntasks SLURM_STEP_ID=$step \\
                    SLURM_NODELIST=localhost SLURM_STEP_NODELIST=localhost SLURM_TASKS_PER_NODE=$ntasks "$@" &
                pids+=($!)
            done
            printf '%s\\n' "${pids[@]}" > "$state/step-$step.pids.tmp" && mv "$state/step-$step.pids.tmp" "$state/step-$step.pids"
            status=0
            for ((left = ntasks; left > 0; left--)); do
                wait -n
                s=$?
                if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then
                    status=$s
                    [ "$kill_on_bad_exit" = 1 ] && kill -TERM "${pids[@]}" 2>/dev/null
                fi
            done
            echo "$status" > "$state/step-$step.status"
            exit "$status"
            """;
}
