package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import io.ironloop.config.Units;
import io.ironloop.group.launch.JobSecret;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The local launcher and supervisor: runs a job of N rank JVMs on this machine to its end, relaunching
 * it after failures as the {@link LaunchSpec} allows.
 *
 * <p>Per attempt every rank gets fresh peer ports and {@code IRONLOOP_ATTEMPT}; the control socket and job
 * secret stay for the whole run. The first non-zero rank exit fails the attempt: the other ranks get
 * SIGTERM, then SIGKILL after the grace period. A failed attempt is relaunched after an exponential
 * backoff while restarts remain, unless the same failure repeated ({@link LaunchSpec#stormLimit()}) or a
 * rank reported a deterministic error ({@link FailureVerdict}); the last line then carries the rank's own
 * message.
 * When every rank declares that it recovers online ({@code LauncherLink.protection}), a rank's exit does not
 * end the attempt: the others keep running and report their recovery, and only a job whose survivors cannot
 * recover (or stay silent past {@link LaunchSpec#recoveryDeadline()}) is relaunched ({@link OnlineLosses}).
 * A signal {@link #deliver delivered} to the launcher is forwarded to the ranks and ends the run without
 * restart (130 for SIGINT, 143 for SIGTERM); a second one kills the ranks at once.
 *
 * <p>Threading: {@link #execute()} runs on the caller's thread (the supervisor thread) and may be called
 * once; {@link #deliver} may be called from any thread, typically a signal handler. No rank outlives
 * {@link #execute()}: ranks still alive when it ends, fails or the JVM shuts down are killed; when the
 * launcher process dies, even by SIGKILL, its {@link RankReaper} kills them (a running rank also halts by
 * itself when its control connection drops).
 */
public final class Launcher {
    private final LaunchSpec spec;
    private final BlockingQueue<SupervisorInput> queue = new LinkedBlockingQueue<>();
    private final Set<RankProcess> processes = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean executed = new AtomicBoolean();
    private final LauncherLog log;

    /**
     * @param spec what to run
     */
    public Launcher(LaunchSpec spec) {
        this.spec = spec;
        this.log = new LauncherLog(spec.err());
    }

    /**
     * Runs a job without handling this process's signals (see {@link SignalForwarding} for that).
     *
     * @param spec what to run
     * @return how the job ended
     * @throws io.ironloop.ConfigurationException if the operator's secret file is unsafe or unreadable
     * @throws LaunchException if the launcher cannot create its secret, socket or processes
     */
    public static LaunchResult run(LaunchSpec spec) {
        return new Launcher(spec).execute();
    }

    /**
     * Hands a signal received by this process to the supervisor. Thread-safe; never blocks.
     *
     * @param signal the signal
     */
    public void deliver(LauncherSignal signal) {
        queue.add(new SupervisorInput.SignalDelivered(signal, Instant.now()));
    }

    /**
     * Runs the job to its end.
     *
     * @return how the job ended
     * @throws IllegalStateException if called a second time
     * @throws io.ironloop.ConfigurationException if the operator's secret file is unsafe or unreadable
     * @throws LaunchException if the launcher cannot create its secret, socket or processes
     */
    public LaunchResult execute() {
        if (!executed.compareAndSet(false, true)) {
            throw new IllegalStateException("a Launcher runs one job; create a new one");
        }
        Instant started = Instant.now();
        String jobId = spec.jobId().orElseGet(Launcher::newJobId);
        LauncherSecrets secrets = new LauncherSecrets(LauncherSecrets.defaultDirectory(), log);
        secrets.sweep();
        JobSecret secret = spec.secretFile().map(JobSecret::load).orElseGet(() -> secrets.create(jobId));
        boolean ownSecret = spec.secretFile().isEmpty();
        Timeline timeline = new Timeline(spec.eventListener(), log);
        Thread hook = new Thread(() -> {
            killAll();
            if (ownSecret) {
                secrets.delete(secret.file());
            }
        }, "ironloop-launcher-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        RankReaper reaper = RankReaper.start(jobId, log);
        SiteProtectors sites = null;
        try (ControlServer control = new ControlServer(secret, jobId, queue::add, log)) {
            FaultInjector faults = new FaultInjector(started, spec.atIteration(), spec.preemptions());
            String classpath = String.join(File.pathSeparator, spec.rankClasspath());
            if (spec.siteProtection().isPresent()) {
                sites = SiteProtectors.start(spec, jobId, secret, classpath, queue::add, log, reaper);
            }
            JobAttempt.Job job = new JobAttempt.Job(jobId, secret.file().toString(), control.hostPort(), classpath,
                    spec, queue, timeline, faults, log, processes, reaper, Optional.ofNullable(sites));
            timeline.supervisor(started, 0, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.JOB_STARTED,
                    fields("job", jobId, "ranks", spec.ranks(), "spares", spec.spares() > 0 ? spec.spares() : null,
                            "restarts", spec.restarts() == Integer.MAX_VALUE ? "unlimited" : spec.restarts(),
                            "restart_strategy", spec.restarts() > 0 ? spec.restartStrategy().describe() : null, "control", control.hostPort(), "main", spec.application().mainClass()));
            log.info("job " + jobId + ": " + spec.ranks() + " rank" + (spec.ranks() == 1 ? "" : "s")
                    + (spec.spares() > 0 ? " + " + spec.spares() + " spare" + (spec.spares() == 1 ? "" : "s") : "") + " of "
                    + spec.application().mainClass() + (spec.restarts() == 0 ? ""
                            : spec.restarts() == Integer.MAX_VALUE ? ", restarts: " + spec.restartStrategy().describe()
                            : ", up to " + spec.restarts() + " restarts, " + spec.restartStrategy().describe()));
            Ending end = supervise(job);
            settleSites(job, end.attempts() - 1, end.status() == 0);
            timeline.supervisor(end.attempts() - 1, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.JOB_FINISHED,
                    fields("status", end.status(), "attempts", end.attempts(), "relaunches", end.attempts() - 1,
                            "online_recoveries", end.onlineRecoveries(), "iteration_events_not_kept",
                            timeline.droppedIterationEvents() > 0 ? timeline.droppedIterationEvents() : null));
            log.info(end.summary());
            return new LaunchResult(end.status(), end.attempts(), end.onlineRecoveries(), started, timeline.snapshot(),
                    end.summary());
        } catch (IOException e) {
            throw new LaunchException("cannot open the launcher's control socket on loopback: " + e.getMessage(), e);
        } finally {
            killAll();
            if (sites != null) {
                sites.close();
            }
            reaper.close();
            removeHook(hook);
            if (ownSecret) {
                secrets.delete(secret.file());
            }
        }
    }

    /** The event a rank sends when its job's completion record says there is nothing left to run. */
    static final String ALREADY_COMPLETE = "already-complete";

    private record Ending(int status, int attempts, int onlineRecoveries, String summary) {
    }

    private Ending supervise(JobAttempt.Job job) {
        RestartPolicy policy = new RestartPolicy(spec.restarts(), spec.restartStrategy(), spec.stormLimit());
        FailureVerdict verdict = new FailureVerdict();
        int recoveries = 0;
        for (int attempt = 0; ; attempt++) {
            if (attempt > 0 && job.sites().isPresent()) {
                job.sites().get().beforeAttempt(attempt, job.timeline());
            }
            AttemptOutcome outcome = new JobAttempt(job, attempt).run();
            int attempts = attempt + 1;
            recoveries += outcome.online().recoveries();
            if (outcome.signal().isPresent()) {
                LauncherSignal s = outcome.signal().get();
                return new Ending(s.exitStatus(), attempts, recoveries, "job " + job.id() + " stopped by " + s.signalName()
                        + " (attempt " + attempt + "); not restarting; exit status " + s.exitStatus());
            }
            if (outcome.halted().isPresent()) {
                return halted(job, attempts, recoveries, outcome.halted().get());
            }
            if (outcome.usageError().isPresent()) {
                return new Ending(2, attempts, recoveries, "job " + job.id() + " stopped: " + outcome.usageError().get());
            }
            if (outcome.status() == 0) {
                return finished(job, attempts, outcome.online(), recoveries);
            }
            String failure = outcome.cause();
            Instant failedAt = Instant.now();
            Optional<String> storm = policy.recordFailure(outcome, failedAt);
            Optional<String> deterministic = verdict.deterministic(outcome);
            if (deterministic.isPresent()) {
                job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.DETERMINISTIC_FAILURE,
                        fields("message", deterministic.get()));
                return new Ending(outcome.status(), attempts, recoveries, "job " + job.id() + " failed in attempt " + attempt + ": "
                        + deterministic.get());
            }
            Optional<String> refusal = policy.refusal(attempt, failedAt);
            if (refusal.isPresent()) {
                return new Ending(outcome.status(), attempts, recoveries, "job " + job.id() + " failed in attempt " + attempt + ": "
                        + failure + (refusal.get().isEmpty() ? "" : "; " + refusal.get()));
            }
            if (storm.isPresent()) {
                log.error(storm.get());
                job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.RESTART_STORM,
                        fields("message", storm.get()));
                return new Ending(outcome.status(), attempts, recoveries, "job " + job.id() + " failed: " + storm.get());
            }
            Duration delay = policy.delayBefore(attempt + 1);
            log.info("attempt " + attempt + " failed (" + failure + "); restarting in " + Units.formatDuration(delay)
                    + " (restart " + (attempt + 1) + (spec.restarts() == Integer.MAX_VALUE ? "" : " of " + spec.restarts())
                    + ", " + spec.restartStrategy().name() + ")");
            job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.RESTART_SCHEDULED,
                    fields("next_attempt", attempt + 1, "delay_ms", delay.toMillis(), "after", failure));
            Optional<LauncherSignal> signal = backoff(delay, job, attempt);
            if (signal.isPresent()) {
                LauncherSignal s = signal.get();
                return new Ending(s.exitStatus(), attempts, recoveries, "job " + job.id() + " stopped by " + s.signalName()
                        + " before restart " + (attempt + 1) + "; exit status " + s.exitStatus());
            }
        }
    }

    private Ending finished(JobAttempt.Job job, int attempts, OnlineLosses.Summary online, int recoveries) {
        List<Fault> unfired = job.faults().unfired();
        if (!unfired.isEmpty()) {
            String names = unfired.stream().map(Fault::describe).collect(Collectors.joining(", "));
            Optional<TimelineEvent> complete = job.timeline().snapshot().stream()
                    .filter(e -> e.attempt() == attempts - 1 && ALREADY_COMPLETE.equals(e.type())).findFirst();
            Object folder = complete.map(e -> e.fields().get("folder")).orElse(null);
            String message = complete.isPresent()
                    ? "the job was already complete" + (folder == null ? "" : " in " + folder)
                            + " (the ranks printed its result without running it), so " + names
                            + " could not fire: use --fresh to run it again"
                    : "the job completed but " + names + " never fired (a rank never reported that"
                    + " iteration, or the job ended before the delay): nothing was rehearsed; choose a fault within"
                    + " the run";
            log.error(message);
            job.timeline().supervisor(attempts - 1, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.USAGE_ERROR,
                    fields("message", message));
            return new Ending(2, attempts, recoveries, "job " + job.id() + ": " + message);
        }
        int world = spec.worldSize();
        int survivors = world - online.lost().size();
        String exited = online.lost().isEmpty() ? (world == 1 ? "the rank" : "all " + world + " ranks") + " exited 0"
                : (survivors == 1 ? "the surviving rank" : "the " + survivors + " surviving ranks") + " exited 0 after losing rank"
                        + (online.lost().size() == 1 ? " " : "s ") + online.lost();
        return new Ending(0, attempts, recoveries, "job " + job.id() + " finished: " + exited
                + (attempts > 1 ? " in attempt " + (attempts - 1) + " (after " + (attempts - 1) + " restart"
                + (attempts > 2 ? "s" : "") + ")" : "")
                + (recoveries > 0 ? "; " + recoveries + " online recover" + (recoveries == 1 ? "y" : "ies") : ""));
    }

    /** The job stopped for a halt request: the request is done, and removed so that the next run goes on. */
    private Ending halted(JobAttempt.Job job, int attempts, int recoveries, String reason) {
        Path folder = spec.folder().orElseThrow(); // only a job with a folder watches for requests
        try {
            HaltRequest.removeFrom(folder);
        } catch (IOException e) {
            log.warn("cannot remove the halt request " + HaltRequest.file(folder) + " (" + e.getMessage()
                    + "): remove it before running the job again, or it halts at once");
        }
        return new Ending(0, attempts, recoveries, "job " + job.id() + " halted " + reason + " (attempt " + (attempts - 1)
                + "); run the same command again to resume from its checkpoints in " + folder);
    }

    /**
     * Waits before a restart, and longer while a lost site's ranks are not placed yet (they are relaunched where its
     * protector puts them); returns the signal that cut the wait short, if any.
     */
    private Optional<LauncherSignal> backoff(Duration delay, JobAttempt.Job job, int attempt) {
        long start = System.nanoTime();
        long deadline = start + delay.toNanos();
        long sitesDeadline = start + job.sites().map(s -> s.placementWait().toNanos()).orElse(0L);
        boolean waitingForSites = false;
        try {
            while (true) {
                long now = System.nanoTime();
                long left = deadline - now;
                if (left <= 0) {
                    SiteProtectors sites = job.sites().orElse(null);
                    if (sites == null || !sites.awaitingPlacement()) {
                        return Optional.empty();
                    }
                    if (now - sitesDeadline >= 0) {
                        log.warn("sites " + sites.unplaced() + " were lost but no protector placed their ranks within "
                                + Units.formatDuration(sites.placementWait()) + ": relaunching on the table v" + sites.table().version());
                        return Optional.empty();
                    }
                    if (!waitingForSites) {
                        waitingForSites = true;
                        log.info("sites " + sites.unplaced() + " lost: waiting for their protectors to detect it, have it verified"
                                + " and place the site checkpoint before relaunching (Algorithm 3)");
                    }
                    left = Math.min(sitesDeadline - now, TimeUnit.MILLISECONDS.toNanos(200));
                }
                SupervisorInput input = queue.poll(left, TimeUnit.NANOSECONDS);
                if (input instanceof SupervisorInput.SiteReport r) {
                    job.sites().ifPresent(s -> s.record(r, attempt, job.timeline()));
                    continue;
                }
                if (input instanceof SupervisorInput.SignalDelivered s) {
                    job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID,
                            TimelineEvent.SIGNAL_RECEIVED, fields("signal", s.signal().signalName()));
                    return Optional.of(s.signal());
                }
                if (input instanceof SupervisorInput.ConnectionRefused c) {
                    job.timeline().supervisor(c.time(), attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID,
                            TimelineEvent.CONNECTION_REFUSED, fields("remote", c.remote(), "reason", c.reason()));
                } else if (input instanceof SupervisorInput.RankHello h) {
                    h.connection().refuse("no attempt is running");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchException("the supervisor was interrupted while waiting to restart", e);
        }
    }

    /**
     * At the end of the job, with site protection: when it finished while a site it lost was not placed yet (its ranks
     * recovered online, or it finished first), waits — at most {@link SiteProtectors#placementWait()}, a signal cuts it
     * short — for a protector to place that site's checkpoint (Algorithm 3); then asks every protector for its table
     * (Algorithm 4), so the run's timeline ends with the table they agreed. A job that failed does not wait: the next
     * run starts its protectors afresh.
     */
    private void settleSites(JobAttempt.Job job, int attempt, boolean finished) {
        SiteProtectors sites = job.sites().orElse(null);
        if (sites == null) {
            return;
        }
        long deadline = System.nanoTime() + (finished ? sites.placementWait().toNanos() : 0);
        if (finished && sites.awaitingPlacement()) {
            log.info("the job ended while sites " + sites.unplaced() + " were lost: waiting for their protectors to place them"
                    + " (Algorithm 3) before stopping the protectors");
        }
        try {
            while (true) {
                boolean waiting = sites.awaitingPlacement() && deadline - System.nanoTime() > 0;
                SupervisorInput input = waiting ? queue.poll(200, TimeUnit.MILLISECONDS) : queue.poll(); // what came before the end, then
                if (input == null && !waiting) {
                    break;
                }
                if (input instanceof SupervisorInput.SiteReport r) {
                    sites.record(r, attempt, job.timeline());
                } else if (input instanceof SupervisorInput.SignalDelivered) {
                    break;
                } else if (input instanceof SupervisorInput.RankHello h) {
                    h.connection().refuse("the job has ended");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (finished && sites.awaitingPlacement()) {
            log.warn("sites " + sites.unplaced() + " were lost but no protector placed them within " + Units.formatDuration(sites.placementWait()));
        }
        sites.askTables(attempt, job.timeline());
    }

    private void killAll() {
        for (RankProcess p : processes) {
            if (p.isAlive()) {
                p.killTree();
            }
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook runs (harmlessly) instead.
        }
    }

    private static String newJobId() {
        byte[] b = new byte[4];
        new SecureRandom().nextBytes(b);
        return "ironloop-" + HexFormat.of().formatHex(b);
    }
}
