package io.ironloop.group.process;

import io.ironloop.group.launch.FreePorts;
import io.ironloop.group.launch.RankCommand;
import io.ironloop.group.jgroups.LocalJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Starts rank JVMs running {@link RankMain} with the launcher's environment; destroys them by PID. */
final class ChildJob implements AutoCloseable {
    final List<Process> processes = new ArrayList<>();
    final List<List<String>> lines = new ArrayList<>();

    ChildJob(int n, String job, Path dir, String... args) throws IOException {
        Path secret = LocalJob.secret(dir, "secret-" + job, job.hashCode());
        List<String> main = new ArrayList<>(List.of(RankMain.class.getName()));
        main.addAll(List.of(args));
        RankCommand ranks = RankCommand.thisJvm(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-Djava.net.preferIPv4Stack=true",
                // timestamps, and the agreement's and membership's decisions, for post-mortems of failures
                "-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-Dorg.slf4j.simpleLogger.log.io.ironloop.group.internal.Agreement=debug"), job, FreePorts.allocate(n), secret, main);
        for (int r = 0; r < n; r++) {
            ProcessBuilder pb = ranks.processBuilder(r);
            Path logs = Path.of("target", "child-logs");
            Files.createDirectories(logs);
            pb.redirectError(logs.resolve(job + "-" + System.currentTimeMillis() + "-rank" + r + ".log").toFile());
            Process p = pb.start();
            processes.add(p);
            List<String> out = new CopyOnWriteArrayList<>();
            lines.add(out);
            Thread t = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l = in.readLine(); l != null; l = in.readLine()) {
                        out.add(l);
                    }
                } catch (IOException e) {
                    out.add("IOERROR " + e);
                }
            }, "child-stdout-" + r);
            t.setDaemon(true);
            t.start();
        }
    }

    Optional<String> line(int rank, String prefix) {
        return lines.get(rank).stream().filter(l -> l.startsWith(prefix)).findFirst();
    }

    boolean all(String prefix, int except) {
        for (int r = 0; r < lines.size(); r++) {
            if (r != except && line(r, prefix).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Everything the ranks printed, for failure messages. */
    String describe() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < lines.size(); r++) {
            Process p = processes.get(r);
            b.append("rank ").append(r).append(" (pid ").append(pid(r)).append(p.isAlive() ? ", running" : ", exit " + p.exitValue())
                    .append("): ").append(lines.get(r)).append('\n');
        }
        return b.append("stderr in target/child-logs").toString();
    }

    /** Waits until {@code condition} holds; fails at once if a rank exits with an error meanwhile. */
    void awaitHealthy(java.time.Duration atMost, java.util.concurrent.Callable<Boolean> condition) {
        await(atMost, () -> {
            for (Process p : processes) {
                if (!p.isAlive() && p.exitValue() != 0) {
                    throw new AssertionError("a rank exited with status " + p.exitValue() + ":\n" + describe());
                }
            }
            return condition.call();
        });
    }

    /** Waits until {@code condition} holds, failing with what the ranks printed. */
    void await(java.time.Duration atMost, java.util.concurrent.Callable<Boolean> condition) {
        try {
            org.awaitility.Awaitility.await().atMost(atMost).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("ranks did not get there within " + atMost + ":\n" + describe(), e);
        }
    }

    long pid(int rank) {
        return processes.get(rank).pid();
    }

    /** Sends a signal (STOP, CONT) with kill(1). */
    void signal(int rank, String signal) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid(rank))).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new IOException("kill -" + signal + " " + pid(rank) + " failed");
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
