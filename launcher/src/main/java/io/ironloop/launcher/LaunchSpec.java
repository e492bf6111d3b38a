package io.ironloop.launcher;

import io.ironloop.group.GroupConfig;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Everything a supervised run needs: how many ranks, what they run, how to restart, which faults to
 * inject, where output goes. Immutable; built with {@link #builder()}.
 */
public final class LaunchSpec {
    /** Default wait for ranks to save and exit after SIGTERM/SIGINT before SIGKILL. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(30);
    /**
     * Default time the other ranks get, after one rank failed, to notice it themselves (heartbeat
     * detection takes TIME_MAX_WAIT + one interval for a hang, about a second for a crash), save their
     * local state and exit, before the launcher sends them SIGTERM.
     */
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(8);
    /** Default delay before the first restart; it doubles for each further restart. */
    public static final Duration DEFAULT_BACKOFF = Duration.ofMillis(500);
    /** Default cap of the restart delay. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);
    /** Default number of consecutive failed attempts at the same iteration that stops restarting. */
    public static final int DEFAULT_STORM_LIMIT = 3;

    /**
     * Added to the group's failure-detection time to give the survivors of a loss their deadline for
     * reporting an online recovery (see {@link Builder#recoveryDeadline}).
     */
    public static final Duration RECOVERY_MARGIN = Duration.ofSeconds(30);

    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final int ranks;
    private final int spares;
    private final OptionalInt fakeHosts;
    private final OptionalInt fakeSites;
    private final Optional<SiteProtection> siteProtection;
    private final Duration recoveryDeadline;
    private final int restarts;
    private final Application application;
    private final List<String> arguments;
    private final List<String> classpath;
    private final List<String> jvmOptions;
    private final Optional<Path> params;
    private final Optional<String> jobId;
    private final Optional<Path> secretFile;
    private final List<Fault.AtIteration> atIteration;
    private final List<Fault.Preemption> preemptions;
    private final OptionalLong lastIteration;
    private final Duration grace;
    private final Duration settle;
    private final boolean fresh;
    private final RestartStrategy restartStrategy;
    private final int stormLimit;
    private final Optional<Path> folder;
    private final Path workingDirectory;
    private final Path javaExecutable;
    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;
    private final Consumer<TimelineEvent> eventListener;
    private final RankOutputListener outputListener;

    private LaunchSpec(Builder b) {
        ranks = b.ranks;
        spares = b.spares == null ? 0 : b.spares;
        fakeHosts = b.fakeHosts == null ? OptionalInt.empty() : OptionalInt.of(b.fakeHosts);
        fakeSites = b.fakeSites == null ? OptionalInt.empty() : OptionalInt.of(b.fakeSites);
        siteProtection = Optional.ofNullable(b.siteProtection);
        recoveryDeadline = b.recoveryDeadline == null ? defaultRecoveryDeadline() : b.recoveryDeadline;
        restartStrategy = b.restartStrategy();
        restarts = b.restarts != null ? b.restarts : restartStrategy instanceof RestartStrategy.FailureRate ? Integer.MAX_VALUE : 0;
        application = b.application;
        arguments = List.copyOf(b.arguments);
        classpath = List.copyOf(b.classpath);
        jvmOptions = List.copyOf(b.jvmOptions);
        Path wd = b.workingDirectory == null ? Path.of("").toAbsolutePath() : b.workingDirectory;
        workingDirectory = wd;
        params = Optional.ofNullable(b.params).map(p -> wd.resolve(p).toAbsolutePath().normalize());
        jobId = Optional.ofNullable(b.jobId);
        secretFile = Optional.ofNullable(b.secretFile).map(p -> wd.resolve(p).toAbsolutePath().normalize());
        atIteration = List.copyOf(b.atIteration);
        preemptions = List.copyOf(b.preemptions);
        lastIteration = b.lastIteration == null ? OptionalLong.empty() : OptionalLong.of(b.lastIteration);
        grace = b.grace == null ? DEFAULT_GRACE : b.grace;
        settle = b.settle == null ? DEFAULT_SETTLE : b.settle;
        fresh = b.fresh;
        folder = Optional.ofNullable(b.folder).map(p -> wd.resolve(p).toAbsolutePath().normalize());
        stormLimit = b.stormLimit == null ? DEFAULT_STORM_LIMIT : b.stormLimit;
        javaExecutable = b.javaExecutable == null
                ? Path.of(System.getProperty("java.home"), "bin", "java") : b.javaExecutable;
        environment = Map.copyOf(b.environment);
        out = b.out == null ? System.out : b.out;
        err = b.err == null ? System.err : b.err;
        eventListener = b.eventListener == null ? e -> { } : b.eventListener;
        outputListener = b.outputListener == null ? RankOutputListener.NONE : b.outputListener;
    }

    /** A new builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** Number of working ranks ({@code -n}), spares not included. */
    public int ranks() {
        return ranks;
    }

    /** Number of spare ranks started after the working ones ({@code --spares}), 0 by default. */
    public int spares() {
        return spares;
    }

    /** Number of rank JVMs an attempt starts, the size of their group: {@link #ranks()} + {@link #spares()}. */
    public int worldSize() {
        return ranks + spares;
    }

    /**
     * How many fake hosts the ranks are spread over ({@code --fake-hosts}); empty: every rank gets this
     * machine's host name. See {@link RankHosts}.
     */
    public OptionalInt fakeHosts() {
        return fakeHosts;
    }

    /**
     * How many fake sites the ranks are spread over ({@code --fake-sites}); empty: no {@code IRONLOOP_SITE} is set
     * (the ranks' {@code SITE} parameter, or one site). See {@link RankHosts}.
     */
    public OptionalInt fakeSites() {
        return fakeSites;
    }

    /**
     * Whether and how the launcher starts a cluster protector per fake site ({@link SiteProtection}); empty: none.
     */
    public Optional<SiteProtection> siteProtection() {
        return siteProtection;
    }

    /**
     * How long the survivors of a loss in an online-protected attempt have to report that they recovered (or
     * cannot), before the launcher stops the attempt and relaunches it.
     */
    public Duration recoveryDeadline() {
        return recoveryDeadline;
    }

    /**
     * The deadline for an online recovery under the group's default failure detection: its time to detect a
     * failure ({@code TIME_MAX_WAIT} + {@code SLEEP_THREAD_TIME} + {@code GROUP_VERIFY_TIMEOUT}) + {@link #RECOVERY_MARGIN}.
     */
    public static Duration defaultRecoveryDeadline() {
        return recoveryDeadline(GroupConfig.defaults());
    }

    /**
     * The deadline for an online recovery under a group configuration: its time to detect a failure
     * ({@code TIME_MAX_WAIT} + {@code SLEEP_THREAD_TIME} + {@code GROUP_VERIFY_TIMEOUT}) + {@link #RECOVERY_MARGIN}.
     *
     * @param group the ranks' group configuration (from the parameter file and environment they get)
     * @return the deadline
     */
    public static Duration recoveryDeadline(GroupConfig group) {
        return group.heartbeatTimeout().plus(group.heartbeatInterval()).plus(group.verifyTimeout()).plus(RECOVERY_MARGIN);
    }

    /** Maximum number of relaunches after a failed attempt (0: none). */
    public int restarts() {
        return restarts;
    }

    /** What every rank runs. */
    public Application application() {
        return application;
    }

    /** The application's arguments. */
    public List<String> arguments() {
        return arguments;
    }

    /** Class path entries added after the launcher's own class path. */
    public List<String> classpath() {
        return classpath;
    }

    /**
     * The rank class path: the launcher's own ({@code java.class.path}), then {@link #classpath()}, then the
     * application's JAR.
     */
    public List<String> rankClasspath() {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path", "").split(File.pathSeparator)));
        entries.addAll(classpath);
        application.jar().ifPresent(j -> entries.add(j.toString()));
        entries.removeIf(String::isBlank);
        return entries;
    }

    /** Options for every rank JVM, before Ironloop's own {@code -D} options. */
    public List<String> jvmOptions() {
        return jvmOptions;
    }

    /** The parameter file, absolute. */
    public Optional<Path> params() {
        return params;
    }

    /** The job id, when chosen by the caller (the launcher generates one otherwise). */
    public Optional<String> jobId() {
        return jobId;
    }

    /** The operator's secret file, absolute (the launcher creates one otherwise). */
    public Optional<Path> secretFile() {
        return secretFile;
    }

    /** Faults injected as SIGKILL at an iteration ({@code --fail}). */
    public List<Fault.KillAtIteration> kills() {
        return atIteration.stream().filter(Fault.KillAtIteration.class::isInstance)
                .map(Fault.KillAtIteration.class::cast).toList();
    }

    /** Faults injected at an iteration: SIGKILL ({@code --fail}) and SIGTERM ({@code --preempt R@itI}), in the order given. */
    public List<Fault.AtIteration> atIteration() {
        return atIteration;
    }

    /** Faults injected as SIGTERM after a delay. */
    public List<Fault.Preemption> preemptions() {
        return preemptions;
    }

    /** The application's last iteration number, when known up front. */
    public OptionalLong lastIteration() {
        return lastIteration;
    }

    /** How long ranks may take to save and exit after SIGTERM/SIGINT before they are killed. */
    public Duration grace() {
        return grace;
    }

    /** How long the other ranks may take to exit by themselves after one failed, before SIGTERM. */
    public Duration settle() {
        return settle;
    }

    /** Whether the first attempt starts over, ignoring checkpoints and a completion record ({@code IRONLOOP_FRESH}). */
    public boolean fresh() {
        return fresh;
    }

    /** When to relaunch after a failure ({@code --restart-strategy}): by default an exponential delay. */
    public RestartStrategy restartStrategy() {
        return restartStrategy;
    }

    /**
     * The job's checkpoint folder ({@code FT_FOLDER}), when known: the launcher polls it for a halt request
     * ({@link HaltRequest}).
     */
    public Optional<Path> folder() {
        return folder;
    }

    /** Consecutive failed attempts at the same iteration that stop restarting. */
    public int stormLimit() {
        return stormLimit;
    }

    /** The ranks' working directory. */
    public Path workingDirectory() {
        return workingDirectory;
    }

    /** The {@code java} executable of the rank JVMs. */
    public Path javaExecutable() {
        return javaExecutable;
    }

    /** Extra environment variables for every rank (Ironloop's own variables take precedence). */
    public Map<String, String> environment() {
        return environment;
    }

    /** Where ranks' standard output goes, prefixed. */
    public PrintStream out() {
        return out;
    }

    /** Where ranks' standard error and the launcher's messages go. */
    public PrintStream err() {
        return err;
    }

    /** Called on the supervisor thread for every timeline event as it is recorded. */
    public Consumer<TimelineEvent> eventListener() {
        return eventListener;
    }

    /** Called for every line a rank prints. */
    public RankOutputListener outputListener() {
        return outputListener;
    }

    /**
     * Builds a {@link LaunchSpec}. Setters reject a bad value with {@link IllegalArgumentException} and a
     * repeated single-valued setting with {@link IllegalStateException}; {@link #build()} checks the
     * settings against each other. Not thread-safe.
     */
    public static final class Builder {
        private Integer ranks;
        private Integer spares;
        private Integer fakeHosts;
        private Integer fakeSites;
        private SiteProtection siteProtection;
        private Duration recoveryDeadline;
        private Integer restarts;
        private Application application;
        private final List<String> arguments = new ArrayList<>();
        private final List<String> classpath = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private Path params;
        private String jobId;
        private Path secretFile;
        private final List<Fault.AtIteration> atIteration = new ArrayList<>();
        private final List<Fault.Preemption> preemptions = new ArrayList<>();
        private Long lastIteration;
        private Duration grace;
        private Duration settle;
        private boolean fresh;
        private Duration backoff;
        private Duration maxBackoff;
        private RestartStrategy restartStrategy;
        private Path folder;
        private Integer stormLimit;
        private Path workingDirectory;
        private Path javaExecutable;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private PrintStream out;
        private PrintStream err;
        private Consumer<TimelineEvent> eventListener;
        private RankOutputListener outputListener;

        private Builder() {
        }

        private static void once(Object current, String name) {
            if (current != null) {
                throw new IllegalStateException(name + " was already set");
            }
        }

        private static Duration nonNegative(Duration d, String name) {
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative: " + d);
            }
            return d;
        }

        /** Number of ranks, at least 1. */
        public Builder ranks(int n) {
            once(ranks, "ranks");
            if (n < 1) {
                throw new IllegalArgumentException("the number of ranks must be at least 1, got " + n);
            }
            ranks = n;
            return this;
        }

        /** Spare ranks started after the {@link #ranks working ones}, at least 0 ({@code --spares}). */
        public Builder spares(int s) {
            once(spares, "spares");
            if (s < 0) {
                throw new IllegalArgumentException("--spares must not be negative, got " + s);
            }
            spares = s;
            return this;
        }

        /**
         * Spreads the ranks over {@code k} fake hosts (failure domains), at least 1 and at most the number of
         * rank JVMs ({@code --fake-hosts}); see {@link RankHosts}.
         */
        public Builder fakeHosts(int k) {
            once(fakeHosts, "fake hosts");
            if (k < 1) {
                throw new IllegalArgumentException("--fake-hosts must be at least 1, got " + k);
            }
            fakeHosts = k;
            return this;
        }

        /**
         * Spreads the ranks over {@code k} fake sites, at least 1 and at most the number of rank JVMs
         * ({@code --fake-sites}): rank r of M is told {@code IRONLOOP_SITE=site-⌊r·k/M⌋}; see {@link RankHosts}.
         */
        public Builder fakeSites(int k) {
            once(fakeSites, "fake sites");
            if (k < 1) {
                throw new IllegalArgumentException("--fake-sites must be at least 1, got " + k);
            }
            fakeSites = k;
            return this;
        }

        /**
         * How long the survivors of a loss in an online-protected attempt have to report their recovery,
         * positive (default {@link #defaultRecoveryDeadline()}; see {@link LaunchSpec#recoveryDeadline(GroupConfig)}).
         */
        public Builder recoveryDeadline(Duration d) {
            once(recoveryDeadline, "recovery deadline");
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("the recovery deadline must be positive: " + d);
            }
            recoveryDeadline = d;
            return this;
        }

        /** Relaunches allowed after failed attempts, at least 0. */
        public Builder restarts(int k) {
            once(restarts, "restarts");
            if (k < 0) {
                throw new IllegalArgumentException("restarts must not be negative, got " + k);
            }
            restarts = k;
            return this;
        }

        /** What every rank runs. */
        public Builder application(Application app) {
            once(application, "application");
            application = Objects.requireNonNull(app, "application");
            return this;
        }

        /** Appends application arguments. */
        public Builder arguments(List<String> args) {
            arguments.addAll(args);
            return this;
        }

        /** Appends class path entries (each may itself contain {@code File.pathSeparator}). */
        public Builder classpath(String entries) {
            for (String e : entries.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    classpath.add(e);
                }
            }
            return this;
        }

        /** Appends a rank JVM option such as {@code -Xmx512m}. */
        public Builder jvmOption(String option) {
            if (option == null || option.isBlank()) {
                throw new IllegalArgumentException("a JVM option must not be blank");
            }
            jvmOptions.add(option);
            return this;
        }

        /** The parameter file passed to ranks as {@code IRONLOOP_PARAMS}. */
        public Builder params(Path file) {
            once(params, "params");
            params = Objects.requireNonNull(file, "params");
            return this;
        }

        /** The job id: 1–64 letters, digits, {@code .}, {@code _}, {@code -}, starting with a letter or digit. */
        public Builder jobId(String id) {
            once(jobId, "job id");
            if (id == null || !JOB_ID.matcher(id).matches()) {
                throw new IllegalArgumentException("job id '" + id + "': use 1-64 letters, digits, '.', '_' or '-',"
                        + " starting with a letter or digit");
            }
            jobId = id;
            return this;
        }

        /** An operator-supplied secret file (owner-only permissions), instead of a generated one. */
        public Builder secretFile(Path file) {
            once(secretFile, "secret file");
            secretFile = Objects.requireNonNull(file, "secretFile");
            return this;
        }

        /** Adds a SIGKILL fault. */
        public Builder kill(Fault.KillAtIteration fault) {
            return fault(fault);
        }

        /** Adds a SIGTERM fault after a delay. */
        public Builder preempt(Fault.Preemption fault) {
            return fault(fault);
        }

        /** Adds a SIGTERM fault at an iteration. */
        public Builder preempt(Fault.PreemptAtIteration fault) {
            return fault(fault);
        }

        /** Adds a fault of any kind, as {@link Fault#parseKills} and {@link Fault#parsePreemptions} return them. */
        public Builder fault(Fault fault) {
            Objects.requireNonNull(fault, "fault");
            if (fault instanceof Fault.AtIteration a) {
                atIteration.add(a);
            } else if (fault instanceof Fault.Preemption p) {
                preemptions.add(p);
            }
            return this;
        }

        /** The application's last iteration number, so faults past it are rejected up front. */
        public Builder lastIteration(long n) {
            once(lastIteration, "iterations");
            if (n < 0) {
                throw new IllegalArgumentException("the last iteration must not be negative, got " + n);
            }
            lastIteration = n;
            return this;
        }

        /** Wait for ranks to exit after SIGTERM/SIGINT before SIGKILL. */
        public Builder grace(Duration d) {
            once(grace, "grace");
            grace = nonNegative(d, "grace");
            return this;
        }

        /** The first attempt starts over; restarts resume from what it saved. */
        public Builder fresh(boolean on) {
            fresh = on;
            return this;
        }

        /** Time the other ranks get to exit by themselves after one failed, before SIGTERM. */
        public Builder settle(Duration d) {
            once(settle, "settle");
            settle = nonNegative(d, "settle");
            return this;
        }

        /**
         * When to relaunch after a failure; without it, an {@link RestartStrategy.ExponentialDelay} from
         * {@link #backoff} and {@link #maxBackoff}. With a {@link RestartStrategy.FailureRate} and no
         * {@link #restarts}, restarts are unlimited.
         */
        public Builder restartStrategy(RestartStrategy s) {
            once(restartStrategy, "restart strategy");
            restartStrategy = java.util.Objects.requireNonNull(s, "restart strategy");
            return this;
        }

        /** The job's checkpoint folder ({@code FT_FOLDER}), where {@code ironloop halt DIR} leaves its request. */
        public Builder folder(Path dir) {
            once(folder, "folder");
            folder = java.util.Objects.requireNonNull(dir, "folder");
            return this;
        }

        private RestartStrategy restartStrategy() {
            return restartStrategy != null ? restartStrategy : new RestartStrategy.ExponentialDelay(
                    backoff == null ? DEFAULT_BACKOFF : backoff, maxBackoff == null ? DEFAULT_MAX_BACKOFF : maxBackoff);
        }

        /** Delay before the first restart (doubling after). */
        public Builder backoff(Duration d) {
            once(backoff, "backoff");
            backoff = nonNegative(d, "backoff");
            return this;
        }

        /** Cap of the restart delay. */
        public Builder maxBackoff(Duration d) {
            once(maxBackoff, "maximum backoff");
            maxBackoff = nonNegative(d, "maximum backoff");
            return this;
        }

        /** Consecutive failures at the same iteration that stop restarting, at least 2. */
        public Builder stormLimit(int n) {
            once(stormLimit, "storm limit");
            if (n < 2) {
                throw new IllegalArgumentException("the storm limit must be at least 2, got " + n);
            }
            stormLimit = n;
            return this;
        }

        /** The ranks' working directory; relative paths in the spec resolve against it. */
        public Builder workingDirectory(Path dir) {
            once(workingDirectory, "working directory");
            workingDirectory = dir.toAbsolutePath().normalize();
            return this;
        }

        /** The {@code java} executable for ranks (default: this JVM's). */
        public Builder javaExecutable(Path java) {
            once(javaExecutable, "java executable");
            javaExecutable = java;
            return this;
        }

        /** An extra environment variable for every rank. */
        public Builder environment(String name, String value) {
            if (name == null || name.isBlank() || name.contains("=")) {
                throw new IllegalArgumentException("bad environment variable name '" + name + "'");
            }
            environment.put(name, Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Destination of ranks' standard output (default {@code System.out}). */
        public Builder out(PrintStream stream) {
            once(out, "out");
            out = stream;
            return this;
        }

        /** Destination of ranks' standard error and the launcher's messages (default {@code System.err}). */
        public Builder err(PrintStream stream) {
            once(err, "err");
            err = stream;
            return this;
        }

        /** Receives every timeline event as it is recorded (on the supervisor thread; must be fast). */
        public Builder eventListener(Consumer<TimelineEvent> listener) {
            once(eventListener, "event listener");
            eventListener = listener;
            return this;
        }

        /**
         * Starts a cluster protector process per fake site and per spare site (per node on a site of several fake
         * hosts: its node protectors, with the controller failover), and relaunches a lost site's ranks
         * where they then run (docs/sites.md); needs {@link #fakeSites} (at least 2) and {@link #folder}.
         */
        public Builder protectSites(SiteProtection protection) {
            once(siteProtection, "site protection");
            siteProtection = java.util.Objects.requireNonNull(protection, "protection");
            return this;
        }

        /** Receives every output line of every rank. */
        public Builder outputListener(RankOutputListener listener) {
            once(outputListener, "output listener");
            outputListener = listener;
            return this;
        }

        /**
         * Checks the settings against each other and builds the spec; changes nothing.
         *
         * @throws IllegalStateException if ranks or the application is missing, a fault names a rank
         *     that does not exist (spares included), a fault is repeated, a fault's iteration is past the last
         *     iteration, there are more fake hosts than rank JVMs, or the maximum backoff is below the backoff
         */
        public LaunchSpec build() {
            if (ranks == null) {
                throw new IllegalStateException("the number of ranks is required (-n N)");
            }
            if (application == null) {
                throw new IllegalStateException("the application (main class or JAR) is required");
            }
            int world = ranks + (spares == null ? 0 : spares);
            if (fakeHosts != null && fakeHosts > world) {
                throw new IllegalStateException("--fake-hosts " + fakeHosts + " is more than the " + world
                        + " rank JVMs: every fake host needs a rank");
            }
            if (fakeSites != null && fakeSites > world) {
                throw new IllegalStateException("--fake-sites " + fakeSites + " is more than the " + world
                        + " rank JVMs: every fake site needs a rank");
            }
            if (siteProtection != null) {
                RankHosts.checkSiteProtection(world, fakeHosts, fakeSites, folder);
            }
            Set<String> seen = new HashSet<>();
            List<Fault> faults = new ArrayList<>(atIteration);
            faults.addAll(preemptions);
            for (Fault f : faults) {
                if (f.rank() >= world) {
                    throw new IllegalStateException(f.describe() + ": rank " + f.rank() + " does not exist in a job of "
                            + world + " ranks (0-" + (world - 1) + (world > ranks ? ", spares included" : "") + ")");
                }
                if (!seen.add(f.describe())) {
                    throw new IllegalStateException(f.describe() + " is given twice");
                }
            }
            if (lastIteration != null) {
                for (Fault.AtIteration k : atIteration) {
                    if (k.iteration() > lastIteration) {
                        throw new IllegalStateException(k.describe() + " is past the last iteration (" + lastIteration
                                + ", from --iterations): the fault would never fire");
                    }
                }
            }
            if (restartStrategy != null && (backoff != null || maxBackoff != null)) {
                throw new IllegalStateException("give the delays in the restart strategy, not also as backoff and maximum backoff");
            }
            try {
                restartStrategy();
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            return new LaunchSpec(this);
        }
    }
}
