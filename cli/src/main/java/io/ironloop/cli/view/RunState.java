package io.ironloop.cli.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.launcher.rank.SavedLevel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What a run looks like so far, folded from its timeline events: the state and iteration of every rank, the
 * attempts, the checkpoints level by level, the failures with their detection and recovery, and the time they
 * cost. Fed live by the launcher (as its event listener) or at once from a {@link TimelineFile}; read by the
 * dashboard as JSON ({@link #json()}) and as the {@link TimelineSvg picture}.
 *
 * <p>Thread-safe: events arrive on the supervisor thread, reads come from the dashboard's threads. Keeps the
 * events with the file's thinning of iterations ({@link TimelineFile.Thinning}).
 */
public final class RunState implements Consumer<TimelineEvent> {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int RECENT = 15;

    private final Clock clock;
    private final List<TimelineEvent> events = new ArrayList<>();
    private final TimelineFile.Thinning thinning = new TimelineFile.Thinning();
    private final Map<Integer, Rank> ranks = new TreeMap<>();
    private final LevelCosts levels = new LevelCosts();
    private final List<Failure> failures = new ArrayList<>();
    private final List<TimelineEvent> recent = new ArrayList<>();
    private Instant started;
    private TimelineEvent finished;
    private String job = "";
    private String main = "";
    private int declaredRanks;
    /** Ranks that run the application (spares not counted), for the per-rank average of the overhead. */
    private int workingRanks;
    private int attempt;
    private long lastIteration = -1;
    private int onlineRecoveries;

    /** A state for a live run, its clock the system's. */
    public RunState() {
        this(Clock.systemUTC());
    }

    /** A state whose "now" (the elapsed time of a running job) comes from {@code clock}. */
    RunState(Clock clock) {
        this.clock = clock;
    }

    /** The state of a finished (or interrupted) run, from its events. */
    public static RunState of(List<TimelineEvent> events) {
        RunState s = new RunState();
        events.forEach(s::accept);
        return s;
    }

    private static final class Rank {
        String state = "starting";
        long pid = TimelineEvent.NO_PID;
        long iteration = -1;
        int attempt;
    }

    private static final class Failure {
        Instant time;
        int rank;
        int attempt;
        String what;
        long iteration = -1;
        Instant exited;
        Instant detected;
        Instant recovered;
        String recovery = "";
        long restoredIteration = -1;
    }

    @Override
    public synchronized void accept(TimelineEvent e) {
        if (!thinning.drops(e)) {
            events.add(e);
        }
        if (started == null || TimelineEvent.JOB_STARTED.equals(e.type())) {
            started = e.time();
        }
        Map<String, Object> f = e.fields();
        Rank r = e.rank() == TimelineEvent.NO_RANK ? null : ranks.computeIfAbsent(e.rank(), k -> new Rank());
        switch (e.type()) {
            case TimelineEvent.JOB_STARTED -> {
                job = String.valueOf(f.get("job"));
                main = String.valueOf(f.getOrDefault("main", ""));
                workingRanks = (int) e.longField("ranks").orElse(0);
                declaredRanks = (int) (workingRanks + e.longField("spares").orElse(0));
                for (int i = 0; i < declaredRanks; i++) {
                    ranks.computeIfAbsent(i, k -> new Rank());
                }
            }
            case TimelineEvent.ATTEMPT_STARTED -> attempt = e.attempt();
            case TimelineEvent.RANK_STARTED -> {
                r.state = "starting";
                r.pid = e.pid();
                r.attempt = e.attempt();
                r.iteration = -1; // until it reports where it resumed
            }
            case TimelineEvent.RANK_CONNECTED -> r.state = "running";
            case "plan" -> lastIteration = Math.max(lastIteration, e.longField("iterations").orElse(-1));
            case "iteration" -> {
                r.state = "running";
                r.iteration = e.longField("iteration").orElse(r.iteration);
            }
            case "saved" -> levels.add(e);
            case "complete" -> {
                r.state = "complete";
                r.iteration = e.longField("iteration").orElse(r.iteration);
            }
            case TimelineEvent.FAULT_INJECTED -> failure(e, "injected " + f.get("signal"), r);
            case TimelineEvent.RANK_EXITED -> {
                long status = e.longField("status").orElse(-1);
                if (status == 0) {
                    r.state = "complete".equals(r.state) ? "complete" : "exited";
                } else {
                    Failure open = open(e.rank(), e.attempt());
                    boolean caused = open == null && failures.stream().anyMatch(x -> x.attempt == e.attempt());
                    r.state = caused ? "stopped" : "failed";
                    if (!caused) {
                        (open == null ? failure(e, "exited with status " + status, r) : open).exited = e.time();
                    }
                }
            }
            case TimelineEvent.RANK_LOST -> {
                r.state = "lost";
                Failure known = failures.stream().filter(x -> x.rank == e.rank() && x.attempt == e.attempt() && x.recovered == null)
                        .reduce((a, b) -> b).orElse(null); // its fault or its exit, reported just before
                (known == null ? failure(e, "lost", r) : known).recovery = "online";
            }
            case TimelineEvent.FAILURE_DETECTED, "detected" -> failures.stream().filter(x -> x.detected == null
                    && x.attempt == e.attempt()).forEach(x -> x.detected = e.time());
            case "recovered" -> {
                onlineRecoveries++;
                failures.stream().filter(x -> x.recovered == null && x.attempt == e.attempt()).forEach(x -> {
                    x.recovered = e.time();
                    x.recovery = "online";
                    x.restoredIteration = e.longField("iteration").orElse(-1);
                });
            }
            case TimelineEvent.RESTART_SCHEDULED -> failures.stream().filter(x -> x.recovered == null && x.attempt == e.attempt())
                    .forEach(x -> x.recovery = "relaunch");
            case "restored" -> {
                r.iteration = e.longField("iteration").orElse(r.iteration);
                failures.stream().filter(x -> x.recovered == null && x.attempt < e.attempt()).forEach(x -> {
                    x.recovered = e.time();
                    x.restoredIteration = e.longField("iteration").orElse(-1);
                });
            }
            case TimelineEvent.JOB_FINISHED -> finished = e;
            default -> {
                // other events are only listed
            }
        }
        boolean routine = "iteration".equals(e.type()) || TimelineEvent.RANK_CONNECTED.equals(e.type())
                || "saved".equals(e.type()) && SavedLevel.isRoutine(f.get("level"));
        if (!routine) {
            recent.add(e);
            if (recent.size() > RECENT) {
                recent.remove(0);
            }
        }
    }

    private Failure failure(TimelineEvent e, String what, Rank r) {
        Failure x = new Failure();
        x.time = e.time();
        x.rank = e.rank();
        x.attempt = e.attempt();
        x.what = what;
        x.iteration = e.longField("iteration").orElse(r == null ? -1 : r.iteration);
        failures.add(x);
        return x;
    }

    /** The failure of {@code rank} in {@code attempt} that has no exit yet (an injected fault), if any. */
    private Failure open(int rank, int attempt) {
        for (Failure x : failures) {
            if (x.rank == rank && x.attempt == attempt && x.exited == null) {
                return x;
            }
        }
        return null;
    }

    /** The events kept so far (iterations thinned), in order. */
    public synchronized List<TimelineEvent> events() {
        return List.copyOf(events);
    }

    /** Whether the job has ended ({@code job-finished} seen). */
    public synchronized boolean finished() {
        return finished != null;
    }

    /** The timeline as an SVG: up to now while the job runs, up to its end after. */
    public String svg() {
        List<TimelineEvent> copy;
        boolean over;
        synchronized (this) {
            copy = List.copyOf(events);
            over = finished != null;
        }
        return TimelineSvg.render(copy, over || copy.isEmpty() ? null : clock.instant());
    }

    /**
     * The state as a JSON object (the dashboard's {@code /state.json}; fields in {@code docs/timeline.md}).
     *
     * @return compact JSON
     */
    public synchronized String json() {
        ObjectNode n = MAPPER.createObjectNode();
        Instant now = finished != null ? finished.time() : clock.instant();
        n.put("job", job);
        n.put("main", main);
        n.put("status", finished == null ? "running" : finished.longField("status").orElse(-1) == 0 ? "succeeded" : "failed");
        if (finished != null) {
            n.put("exit_status", finished.longField("status").orElse(-1));
        }
        double elapsed = started == null ? 0 : seconds(started, now);
        int working = workingRanks > 0 ? workingRanks : ranks.size();
        n.put("elapsed_s", elapsed);
        n.put("attempts", attempt + 1);
        n.put("relaunches", attempt);
        n.put("online_recoveries", onlineRecoveries);
        n.put("last_iteration", lastIteration);
        ArrayNode rs = n.putArray("ranks");
        ranks.forEach((rank, r) -> rs.addObject().put("rank", rank).put("state", r.state).put("pid", r.pid)
                .put("iteration", r.iteration).put("attempt", r.attempt));
        ArrayNode ls = n.putArray("levels");
        levels.levels().forEach((name, l) -> {
            ObjectNode o = ls.addObject().put("level", name).put("saves", l.saves).put("iteration", l.iteration)
                    .put("last_s", l.last == null ? 0 : seconds(started, l.last));
            if (l.costs) {
                o.put("bytes", l.bytes).put("blocking_s", l.blockingSeconds).put("overhead_fraction", l.overhead(elapsed, working));
            }
        });
        ArrayNode fs = n.putArray("failures");
        double lost = 0;
        for (Failure x : failures) {
            ObjectNode o = fs.addObject().put("rank", x.rank).put("attempt", x.attempt).put("what", x.what)
                    .put("t_s", seconds(started, x.time)).put("iteration", x.iteration).put("recovery", x.recovery);
            if (x.detected != null) {
                o.put("detected_s", seconds(started, x.detected));
            }
            if (x.recovered != null) {
                o.put("recovered_s", seconds(started, x.recovered)).put("restored_iteration", x.restoredIteration)
                        .put("lost_s", seconds(x.time, x.recovered));
                lost += seconds(x.time, x.recovered);
            } else if (finished == null) {
                o.put("lost_s", seconds(x.time, now)).put("recovering", true); // so far: the job is still recovering
                lost += seconds(x.time, now);
            }
        }
        ObjectNode overhead = n.putObject("overhead");
        overhead.put("failures_s", lost);
        overhead.put("failures_fraction", started == null || !now.isAfter(started) ? 0 : lost / seconds(started, now));
        overhead.put("checkpoints", levels.saves());
        overhead.put("ranks", working);
        overhead.put("blocking_s", levels.blockingSeconds());
        overhead.put("blocking_fraction", LevelCosts.overhead(levels.blockingSeconds(), elapsed, working));
        ArrayNode ev = n.putArray("recent");
        for (TimelineEvent e : recent) {
            ev.addObject().put("t_s", seconds(started, e.time())).put("rank", e.rank()).put("type", e.type())
                    .put("fields", e.fields().toString());
        }
        return n.toString();
    }

    private static double seconds(Instant from, Instant to) {
        return Math.round(Duration.between(from, to).toNanos() / 1e6) / 1e3;
    }
}
