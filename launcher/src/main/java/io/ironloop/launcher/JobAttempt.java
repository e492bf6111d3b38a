package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.config.Units;
import io.ironloop.launcher.rank.LauncherLink;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One attempt of a job: starts every rank, then handles the supervisor's inputs one at a time until every
 * rank has exited — stopping the others at the first failure, forwarding signals, injecting faults,
 * killing what outlives the grace period. Runs on the supervisor thread; not thread-safe.
 *
 * <p>It is the event loop and its decisions; the collaborators each keep one part of the state:
 * {@link AttemptRanks} (the processes and their exits), {@link RankChannels} (the control connections),
 * {@link RankProgress} (iterations and the error that caused the failure), {@link StoppedRanks},
 * {@link OnlineLosses}, {@link Halting} and the job's {@link FaultInjector}.
 *
 * <p>Nothing waits on a process that can never answer: a rank stopped by job control (SIGSTOP) is killed as
 * {@link StoppedRanks} decides — at once when the attempt is ending anyway (a rank failed or exited 0, the
 * ranks are being stopped, the launcher got a signal) or another rank reported it failed, otherwise once it
 * has stayed stopped too long. Its exit then fails the attempt like any other.
 *
 * <p>When every rank declared that it recovers online ({@link OnlineLosses}), a rank's exit — a crash, an
 * injected or external SIGKILL, a stopped rank killed — does not end the attempt: the loss is recorded and the
 * others keep running until they report the recovery, or fail to in time.
 */
final class JobAttempt {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);

    /** What every attempt of a job shares. */
    record Job(String id, String secretFile, String control, String classpath, LaunchSpec spec,
            BlockingQueue<SupervisorInput> queue, Timeline timeline, FaultInjector faults, LauncherLog log,
            Set<RankProcess> processes, RankReaper reaper, Optional<SiteProtectors> sites) {
    }

    private final Job job;
    private final int attempt;
    private final int size;
    private final AttemptRanks ranks;
    private final RankChannels channels;
    private final RankProgress progress;
    private final Set<Integer> injected = new HashSet<>();
    private boolean stopping;
    private Instant killDeadline;
    private Instant stopAt;
    private int failedRank = -1;
    private int failedStatus;
    private LauncherSignal signal;
    private String usageError;
    private final StoppedRanks stoppedRanks;
    private final OnlineLosses online;
    /** Inputs taken from the queue out of turn, handled before the queue's next ones. */
    private final Deque<SupervisorInput> deferred = new ArrayDeque<>();
    private boolean finishedRank;
    private final Halting halting;

    JobAttempt(Job job, int attempt) {
        this.job = job;
        this.attempt = attempt;
        this.size = job.spec().worldSize();
        this.ranks = new AttemptRanks(job, attempt);
        this.channels = new RankChannels(attempt, size);
        this.progress = new RankProgress(size);
        this.stoppedRanks = new StoppedRanks(ranks.processes());
        this.online = new OnlineLosses(attempt, size, job.spec().recoveryDeadline(), job.timeline(), job.log());
        this.halting = new Halting(job.spec().folder(), attempt, job.timeline(), job.log());
    }

    /**
     * Runs the attempt to its end.
     *
     * @return how it ended
     * @throws LaunchException if a rank cannot be started or the supervisor thread is interrupted (every
     *     rank is then killed)
     */
    AttemptOutcome run() {
        try {
            ranks.start();
            while (ranks.live() > 0) {
                SupervisorInput input = deferred.isEmpty() ? job.queue().poll(waitNanos(), TimeUnit.NANOSECONDS)
                        : deferred.poll();
                if (input != null) {
                    handle(input);
                }
                timers(Instant.now());
            }
            drainLateMessages();
            ranks.awaitOutput(OUTPUT_DRAIN);
            if (failedRank < 0 && !online.unreported().isEmpty()) {
                job.log().warn("the surviving ranks exited 0 without reporting an online recovery from the loss of ranks "
                        + online.unreported());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchException("the supervisor was interrupted during attempt " + attempt
                    + "; every rank was killed", e);
        } finally {
            ranks.killAll();
            channels.closeAll();
        }
        boolean injectedFailure = failedRank >= 0 && injected.contains(failedRank);
        return new AttemptOutcome(failedRank >= 0 ? failedStatus : 0, failedRank, progress.highest(), injectedFailure,
                Optional.ofNullable(signal), Optional.ofNullable(usageError), progress.error(), online.summary(),
                halting.reason());
    }

    /**
     * Records the events ranks sent just before exiting: their exit can overtake their last messages on
     * the way to the supervisor. Other inputs (signals) stay queued for the launcher.
     */
    private void drainLateMessages() throws InterruptedException {
        channels.awaitFinished(OUTPUT_DRAIN);
        List<SupervisorInput> pending = new ArrayList<>(deferred);
        deferred.clear();
        job.queue().drainTo(pending);
        for (SupervisorInput input : pending) {
            if (input instanceof SupervisorInput.SignalDelivered) {
                job.queue().add(input);
            } else {
                handle(input);
            }
        }
    }

    private long waitNanos() {
        Instant now = Instant.now();
        Instant next = now.plus(StoppedRanks.STOP_CHECK);
        if (killDeadline != null && killDeadline.isBefore(next)) {
            next = killDeadline;
        }
        if (stopAt != null && stopAt.isBefore(next)) {
            next = stopAt;
        }
        Optional<Instant> recovery = online.nextDeadline();
        if (recovery.isPresent() && recovery.get().isBefore(next)) {
            next = recovery.get();
        }
        Optional<Instant> halt = stopping ? Optional.empty() : halting.nextCheck();
        if (halt.isPresent() && halt.get().isBefore(next)) {
            next = halt.get();
        }
        if (!stopping) {
            for (Fault.Preemption p : job.faults().pendingPreemptions()) {
                Instant due = job.faults().dueTime(p);
                if (ranks.running(p.rank()) && due.isBefore(next)) {
                    next = due;
                }
            }
        }
        return Math.max(0, Duration.between(now, next).toNanos());
    }

    private void timers(Instant now) {
        killStopped(now, false);
        if (stopAt != null && !now.isBefore(stopAt)) {
            stopAt = null;
            if (!stopping) {
                stopAll((failedRank >= 0 ? "rank " + failedRank + " failed" : "the online recovery failed")
                        + " and the others did not exit within --settle ("
                        + Units.formatDuration(job.spec().settle()) + ")");
            }
        }
        if (killDeadline != null && !now.isBefore(killDeadline)) {
            killDeadline = null;
            List<Integer> killed = ranks.killRunning();
            if (!killed.isEmpty()) {
                job.log().warn("ranks " + killed + " did not exit within the grace period ("
                        + Units.formatDuration(job.spec().grace()) + "): killed them (SIGKILL)");
                job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID,
                        TimelineEvent.GRACE_EXPIRED, fields("ranks", killed, "signal", "SIGKILL"));
            }
        }
        if (stopping) {
            return;
        }
        online.overdue(now).ifPresent(this::recoveryFailed);
        halting.due(now).ifPresent(this::halt);
        if (stopping) {
            return;
        }
        for (Fault.Preemption p : job.faults().pendingPreemptions()) {
            RankProcess rp = ranks.process(p.rank());
            if (!now.isBefore(job.faults().dueTime(p)) && ranks.running(p.rank())) {
                job.faults().fired(p);
                injected.add(p.rank());
                job.log().info("injecting " + p.describe() + ": SIGTERM to rank " + p.rank() + " (pid " + rp.pid() + ")");
                job.timeline().supervisor(attempt, p.rank(), rp.pid(), TimelineEvent.FAULT_INJECTED,
                        fields("fault", p.describe(), "signal", "SIGTERM", "after_s", p.after().toMillis() / 1000.0));
                rp.terminate();
            }
        }
    }

    private void handle(SupervisorInput input) {
        if (input instanceof SupervisorInput.RankExited e) {
            exited(e);
        } else if (input instanceof SupervisorInput.RankMessage m) {
            message(m);
        } else if (input instanceof SupervisorInput.RankHello h) {
            hello(h);
        } else if (input instanceof SupervisorInput.SignalDelivered s) {
            signal(s.signal());
        } else if (input instanceof SupervisorInput.ConnectionRefused c) {
            job.timeline().supervisor(c.time(), attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID,
                    TimelineEvent.CONNECTION_REFUSED, fields("remote", c.remote(), "reason", c.reason()));
        } else if (input instanceof SupervisorInput.SiteReport s) {
            job.sites().ifPresent(sites -> sites.record(s, attempt, job.timeline()));
        }
    }

    private void exited(SupervisorInput.RankExited e) {
        if (e.attempt() != attempt || !ranks.recordExit(e.rank(), e.status())) {
            return;
        }
        int r = e.rank();
        job.timeline().supervisor(e.time(), attempt, r, e.pid(), TimelineEvent.RANK_EXITED,
                fields("status", e.status(), "signal", ExitStatuses.signalOf(e.status())));
        if (e.status() == 0) {
            finishedRank = true;
            killStopped(Instant.now(), true);
        }
        if (e.status() == 0 || failedRank >= 0 || signal != null || usageError != null || halting.reason().isPresent()) {
            return;
        }
        if (online.protects()) {
            handleLastMessages(r); // a recovery-impossible report just before the exit decides what the exit means
            if (failedRank >= 0) {
                return;
            }
        }
        Long iteration = progress.lastIteration(r).isPresent() ? progress.lastIteration(r).getAsLong() : null;
        if (!stopping && ranks.live() > 0 && progress.error().isEmpty() && online.protects()) {
            online.lost(e, iteration, injected.contains(r), "exited with " + ExitStatuses.describe(e.status())
                    + (stoppedRanks.killed(r) ? " (killed for being stopped)" : "")
                    + (iteration != null ? " after reporting iteration " + iteration : ""));
            return;
        }
        failedRank = r;
        failedStatus = e.status();
        job.timeline().supervisor(e.time(), attempt, r, e.pid(), TimelineEvent.FAILURE_DETECTED,
                fields("status", e.status(), "iteration", iteration, "injected", injected.contains(r)));
        job.log().info("rank " + r + " (pid " + e.pid() + ") exited with " + ExitStatuses.describe(e.status())
                + (stoppedRanks.killed(r) ? " (killed for being stopped)" : "")
                + (iteration != null ? " after reporting iteration " + iteration : "")
                + (ranks.live() > 0 ? "; the other ranks get " + Units.formatDuration(job.spec().settle())
                        + " to notice, save and exit before SIGTERM" : ""));
        if (!stopping && ranks.live() > 0) {
            if (job.spec().settle().isZero()) {
                stopAll("rank " + r + " failed");
            } else {
                stopAt = Instant.now().plus(job.spec().settle());
            }
        }
    }

    /**
     * Handles now the messages rank {@code r} sent before its exit, which the exit can overtake: waits (bounded)
     * until its connection has delivered its last message, then handles its messages waiting in the queue and
     * defers the other inputs, in order.
     */
    private void handleLastMessages(int r) {
        RankConnection c = channels.of(r).orElse(null);
        if (c == null) {
            return;
        }
        try {
            c.awaitFinished(OUTPUT_DRAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the supervisor loop's next wait throws it
            return;
        }
        List<SupervisorInput> pending = new ArrayList<>(deferred);
        deferred.clear();
        job.queue().drainTo(pending);
        for (SupervisorInput input : pending) {
            if (input instanceof SupervisorInput.RankMessage m && m.connection() == c) {
                message(m);
            } else {
                deferred.add(input);
            }
        }
    }

    private void stopAll(String reason) {
        stopping = true;
        killStopped(Instant.now(), true);
        List<Integer> stopped = ranks.terminate(stoppedRanks::killed);
        if (!stopped.isEmpty()) {
            job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.STOPPING,
                    fields("signal", "SIGTERM", "ranks", stopped, "reason", reason));
            killDeadline = Instant.now().plus(job.spec().grace());
        }
    }

    /** Kills the live ranks that are stopped and due ({@link StoppedRanks#due}); at once while the attempt is ending. */
    private void killStopped(Instant now, boolean force) {
        String ending = stopping ? "the ranks are being stopped and it cannot answer SIGTERM"
                : failedRank >= 0 ? "rank " + failedRank + " failed and a stopped rank can neither save nor exit"
                : finishedRank ? "other ranks exited 0 and a stopped rank can never finish"
                : null;
        stoppedRanks.due(now, force, ending, r -> !ranks.exited(r)).forEach(this::killStoppedRank);
    }

    private void killStoppedRank(StoppedRanks.Kill kill) {
        int r = kill.rank();
        job.log().warn("rank " + r + " (pid " + ranks.process(r).pid() + ") is stopped (SIGSTOP, state T): " + kill.reason()
                + "; killed it (SIGKILL)");
        job.timeline().supervisor(attempt, r, ranks.process(r).pid(), TimelineEvent.STOPPED_RANK_KILLED,
                fields("stopped_s", kill.stopped().toMillis() / 1000.0, "reason", kill.reason()));
        ranks.process(r).killTree();
    }

    private void signal(LauncherSignal s) {
        job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.SIGNAL_RECEIVED,
                fields("signal", s.signalName()));
        if (signal != null) {
            job.log().info("received " + s.signalName() + " again: killing the ranks now (SIGKILL)");
            List<Integer> killed = ranks.killRunning();
            killDeadline = null;
            job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.STOPPING,
                    fields("signal", "SIGKILL", "ranks", killed, "reason", "second signal"));
            return;
        }
        signal = s;
        stopping = true;
        List<Integer> forwarded = ranks.forward(s);
        job.log().info("received " + s.signalName() + ": forwarded it to ranks " + forwarded + "; waiting up to "
                + Units.formatDuration(job.spec().grace()) + " for them to save and exit (SIGINT again kills them now)");
        job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.SIGNAL_FORWARDED,
                fields("signal", s.signalName(), "ranks", forwarded));
        Instant deadline = Instant.now().plus(job.spec().grace());
        if (killDeadline == null || deadline.isBefore(killDeadline)) {
            killDeadline = deadline;
        }
    }

    /** Stops the ranks for a halt request as a SIGTERM to the launcher would: they save, exit, and are not relaunched. */
    private void halt(String reason) {
        stopping = true;
        killStopped(Instant.now(), true);
        List<Integer> stopped = ranks.terminate(r -> false);
        job.log().info("halting the job " + reason + ": SIGTERM to ranks " + stopped + "; waiting up to "
                + Units.formatDuration(job.spec().grace()) + " for them to save and exit; it is not relaunched");
        job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.HALTING,
                fields("reason", reason, "ranks", stopped, "signal", "SIGTERM"));
        Instant deadline = Instant.now().plus(job.spec().grace());
        if (killDeadline == null || deadline.isBefore(killDeadline)) {
            killDeadline = deadline;
        }
    }

    private void hello(SupervisorInput.RankHello h) {
        RankConnection c = h.connection();
        int r = c.rank();
        String reason = channels.refusal(c, ranks).orElse(null);
        if (reason != null) {
            job.log().warn("refused control connection from " + c.remote() + ": " + reason);
            c.refuse(reason);
            job.timeline().supervisor(h.time(), attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID,
                    TimelineEvent.CONNECTION_REFUSED, fields("remote", c.remote(), "reason", reason));
            return;
        }
        // a rank that has just connected has not finished an iteration: that is --fail RANK@0, and it dies
        // unwelcomed, so before it can start one (--preempt RANK@it0 is welcomed, then gets its SIGTERM)
        Optional<Fault.AtIteration> atStart = stopping ? Optional.empty() : job.faults().takeAt(r, 0);
        List<Long> syncIterations = stopping ? List.of() : job.faults().syncIterations(r);
        if (!(atStart.orElse(null) instanceof Fault.KillAtIteration)) {
            try {
                c.welcome(syncIterations);
            } catch (IOException e) {
                job.log().warn("could not welcome rank " + r + ": " + e.getMessage());
                return;
            }
        }
        channels.accept(r, c, syncIterations);
        job.timeline().supervisor(h.time(), attempt, r, c.pid(), TimelineEvent.RANK_CONNECTED, fields());
        atStart.ifPresent(k -> inject(c, k, 0));
    }

    private void message(SupervisorInput.RankMessage m) {
        RankConnection c = m.connection();
        if (!channels.isCurrent(c)) {
            return;
        }
        int r = c.rank();
        ObjectNode node = m.message();
        String type = node.path("type").asText();
        Map<String, Object> eventFields = JSON.convertValue(node, MAP);
        eventFields.remove("type");
        job.timeline().add(new TimelineEvent(m.time(), TimelineEvent.Source.RANK, attempt, r, c.pid(), type, eventFields));
        if ("iteration".equals(type) && node.path("iteration").canConvertToLong()) {
            iteration(c, node.path("iteration").asLong());
        } else if ("saved".equals(type) && !stopping) {
            halting.saved(node.path("level").asText(), node.path("iteration").asLong(-1), m.time()).ifPresent(this::halt);
        } else if ("plan".equals(type) && node.path("iterations").canConvertToLong()) {
            plan(node.path("iterations").asLong());
        } else if ("restored".equals(type) && node.path("iteration").canConvertToLong()) {
            progress.resumed(r, node.path("iteration").asLong());
        } else if (RankError.EVENT.equals(type)) {
            rankError(r, node);
        } else if (LauncherLink.DETECTED.equals(type)) {
            detected(r, node.path("failed"));
        } else if (LauncherLink.PROTECTION.equals(type)) {
            online.declared(r, node);
        } else if (LauncherLink.RECOVERED.equals(type) && !stopping && failedRank < 0) {
            online.recovered(r, node);
        } else if (LauncherLink.RECOVERY_IMPOSSIBLE.equals(type) && !stopping && failedRank < 0) {
            recoveryFailed(online.impossible(r, node));
        }
    }

    /**
     * The survivors of a loss did not recover online: the attempt fails, charged to the lost rank. Survivors that
     * said so exit by themselves (within --settle); silent ones are stopped now.
     */
    private void recoveryFailed(OnlineLosses.Failure f) {
        if (f.rank() >= 0) {
            failedRank = f.rank();
            failedStatus = f.status();
        }
        if (f.stopNow()) {
            stopAll(f.cause());
        } else if (ranks.live() > 0 && stopAt == null) {
            stopAt = Instant.now().plus(job.spec().settle());
        }
    }

    private void iteration(RankConnection c, long it) {
        int r = c.rank();
        progress.iteration(r, it);
        if (ranks.exited(r)) {
            return;
        }
        Optional<Fault.AtIteration> fault = stopping ? Optional.empty() : job.faults().takeAt(r, it);
        if (fault.isPresent()) {
            inject(c, fault.get(), it);
            return;
        }
        if (channels.waitsAt(r, it)) {
            try {
                c.ack(it);
            } catch (IOException e) {
                job.log().warn("could not acknowledge iteration " + it + " of rank " + r + ": " + e.getMessage());
            }
        }
    }

    /** A rank reported ranks as failed: those that are stopped are hung, not slow, and are killed now. */
    private void detected(int reporter, JsonNode failed) {
        for (JsonNode n : failed) {
            int r = n.asInt(-1);
            if (r >= 0 && r < size && !ranks.exited(r)) {
                stoppedRanks.reportedFailed(r, reporter, Instant.now()).ifPresent(this::killStoppedRank);
            }
        }
    }

    /**
     * Strikes a rank waiting at a synchronised iteration. It gets no acknowledgement: a killed rank is gone,
     * and a preempted one saves and exits from where it waits, so the fault strikes exactly there.
     */
    private void inject(RankConnection c, Fault.AtIteration fault, long it) {
        int r = c.rank();
        injected.add(r);
        job.log().info("injecting " + fault.describe() + ": " + fault.signalName() + " to rank " + r + " (pid " + c.pid()
                + ") at iteration " + it);
        job.timeline().supervisor(attempt, r, c.pid(), TimelineEvent.FAULT_INJECTED,
                fields("fault", fault.describe(), "signal", fault.signalName(), "iteration", it));
        if (fault instanceof Fault.KillAtIteration) {
            ranks.process(r).kill();
        } else {
            ranks.process(r).terminate();
        }
    }

    /**
     * A rank reported the exception it ends with; when it is the attempt's cause ({@link RankProgress#error}), the
     * others are released by the group (its departure notice), and those that do not exit by themselves within
     * --settle are stopped.
     */
    private void rankError(int r, ObjectNode node) {
        Optional<RankError> cause = progress.error(r, node);
        if (cause.isEmpty()) {
            return;
        }
        job.log().error(cause.get().describe());
        if (!stopping && stopAt == null && ranks.live() > 1) {
            stopAt = Instant.now().plus(job.spec().settle());
        }
    }

    private void plan(long last) {
        Optional<String> problem = job.faults().checkPlan(last);
        if (problem.isEmpty() || usageError != null || stopping) {
            return;
        }
        usageError = problem.get();
        job.log().error(usageError + "; stopping the job");
        job.timeline().supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TimelineEvent.USAGE_ERROR,
                fields("message", usageError));
        stopAll("usage error");
    }
}
