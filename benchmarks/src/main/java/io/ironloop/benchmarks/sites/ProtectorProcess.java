package io.ironloop.benchmarks.sites;

import io.ironloop.sites.SiteEvent;
import io.ironloop.sites.SiteProtectorMain;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One cluster protector in a JVM of its own ({@link SiteProtectorMain}, with the launcher's JVM options), as a job runs
 * it: its events read from its standard output, its CPU time read from the kernel. Closing it kills it (SIGKILL) and
 * waits for its end; a shutdown hook kills it if the bench's JVM exits first (not if that JVM is killed with SIGKILL).
 */
final class ProtectorProcess implements AutoCloseable {
    private final String site;
    private final Process process;
    private final LinkedBlockingQueue<Map.Entry<String, Map<String, String>>> events = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<String> listening = new LinkedBlockingQueue<>();

    private final Thread reaper; // kills the process if the bench's JVM exits without closing it (an exception, SIGTERM, Ctrl-C)

    private ProtectorProcess(String site, Process process) {
        this.site = site;
        this.process = process;
        this.reaper = new Thread(process::destroyForcibly, "ironloop-bench-protector-reaper-" + site);
        Runtime.getRuntime().addShutdownHook(reaper);
        Thread pump = new Thread(this::pump, "ironloop-bench-protector-" + site);
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts the protector of {@code site} and waits until it listens (at most a minute).
     *
     * @param table the table file ({@code Topology.encode()}), with every protector's address
     * @param heartbeat {@code SITE_HEARTBEAT}
     * @param timeout {@code SITE_TIMEOUT}
     * @param log where its standard error goes
     * @throws IOException if it cannot start or does not listen within a minute
     */
    static ProtectorProcess start(String site, Path table, Path siteFolder, Path heldFolder, Path secretFile, Duration heartbeat,
            Duration timeout, Path log) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(SiteProtectorMain.JVM_OPTIONS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SiteProtectorMain.class.getName(), "--site", site, "--table",
                table.toString(), "--site-folder", siteFolder.toString(), "--held-folder", heldFolder.toString(), "--secret-file",
                secretFile.toString(), "--heartbeat-ms", Long.toString(heartbeat.toMillis()), "--timeout-ms", Long.toString(timeout.toMillis())));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ProtectorProcess pp = new ProtectorProcess(site, p);
        if (pp.listening.poll(1, TimeUnit.MINUTES) == null) {
            pp.close();
            throw new IOException("the protector of site " + site + " (pid " + p.pid() + ") did not listen within a minute; see " + log);
        }
        return pp;
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("listening ")) {
                    listening.add(line);
                } else if (line.startsWith("event ")) {
                    events.add(SiteEvent.parse(line.substring("event ".length())));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // the process ended (or printed what is not an event): what it shipped until then was counted
        }
    }

    /** The CPU seconds (user and system) the process has used so far, as the kernel counts them (10 ms steps). */
    double cpuSeconds() {
        return process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
    }

    /**
     * Waits until the process is quiet — at most 10 ms of CPU in 200 ms, its start-up and compilation done — at most
     * {@code patience}; a run timed after it starts on the same footing whichever side it is.
     */
    void awaitQuiet(Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        double before = cpuSeconds();
        while (System.nanoTime() < deadline) {
            Thread.sleep(200);
            double now = cpuSeconds();
            if (now - before <= 0.010) {
                return;
            }
            before = now;
        }
    }

    /**
     * Waits for a {@code Shipped} event of this protector's site and {@code series} whose iteration is at least
     * {@code iteration}.
     *
     * @return the {@code Shipped} events of {@code series} seen meanwhile
     * @throws IOException if none comes within {@code patience}
     */
    int awaitShipped(String series, long iteration, Duration patience) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        int shipped = 0;
        while (System.nanoTime() < deadline) {
            Map.Entry<String, Map<String, String>> e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null && e.getKey().equals("Shipped") && site.equals(e.getValue().get("site")) && series.equals(e.getValue().get("series"))) {
                shipped++;
                if (Long.parseLong(e.getValue().get("iteration")) >= iteration) {
                    return shipped;
                }
            }
        }
        throw new IOException("the protector of site " + site + " (pid " + process.pid() + ") did not ship " + series + " iteration " + iteration
                + " within " + patience.toSeconds() + " s");
    }

    /**
     * Waits until this protector's site has shipped a line of every one of {@code series}.
     *
     * @throws IOException if they are not all shipped within {@code patience}
     */
    void awaitShipped(java.util.Collection<String> series, Duration patience) throws IOException, InterruptedException {
        java.util.Set<String> left = new java.util.HashSet<>(series);
        long deadline = System.nanoTime() + patience.toNanos();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Map.Entry<String, Map<String, String>> e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null && e.getKey().equals("Shipped") && site.equals(e.getValue().get("site"))) {
                left.remove(e.getValue().get("series"));
            }
        }
        if (!left.isEmpty()) {
            throw new IOException("the protector of site " + site + " (pid " + process.pid() + ") did not ship " + left + " within "
                    + patience.toSeconds() + " s");
        }
    }

    /** Kills the process (SIGKILL) and waits for its end. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs, on a process already gone
        }
    }
}
