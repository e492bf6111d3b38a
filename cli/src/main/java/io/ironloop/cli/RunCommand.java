package io.ironloop.cli;

import io.ironloop.ConfigurationException;
import io.ironloop.launcher.Application;
import io.ironloop.launcher.Fault;
import io.ironloop.launcher.LaunchResult;
import io.ironloop.launcher.LaunchSpec;
import io.ironloop.launcher.RestartStrategy;
import io.ironloop.launcher.SiteProtection;
import io.ironloop.launcher.Launcher;
import io.ironloop.launcher.SignalForwarding;
import io.ironloop.cli.view.OptionalPort;
import io.ironloop.cli.view.RunObservers;
import io.ironloop.cli.view.TimelineFile;
import io.ironloop.config.Units;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.launch.JobSecret;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ironloop run}: the local launcher and supervisor (see {@link Launcher}). */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Start N rank JVMs of an application on this machine and supervise them.",
            "",
            "Each rank runs directly (no shell) as: java [--jvm-opt]... -Dironloop.rank=R -Dironloop.job=ID"
                + " -cp <launcher class path>:<--cp> io.ironloop.launcher.rank.RankBootstrap MAINCLASS [ARGS],"
                + " in the current directory. Standard output of the ranks is forwarded as it is (results),"
                + " standard error line by line prefixed with [R] (logs); control characters are escaped.",
            "",
            "A non-zero exit of any rank fails the attempt: the other ranks get --settle to notice the failure,"
                + " save and exit by themselves, then SIGTERM, then SIGKILL after --grace. With --restarts K the whole job is relaunched (IRONLOOP_ATTEMPT 1, 2, ...) after"
                + " 0.5 s, 1 s, 2 s, ... (--backoff, --max-backoff), so it can resume from its checkpoints;"
                + " restarting stops early when --storm-limit attempts in a row fail at the same iteration, and at once"
                + " when a rank's exception is a configuration error or repeats (same exception and message at the same"
                + " iteration as in the attempt before): the last line then carries that rank's own message.",
            "",
            "SIGINT or SIGTERM to the launcher is forwarded to every rank; the launcher waits up to --grace"
                + " for them to save and exit, then exits 130 / 143 without restarting. A second signal kills"
                + " the ranks at once. Ranks halt by themselves if the launcher dies (even by kill -9), and a"
                + " reaper process kills them then, stopped ones included.",
            "",
            "A rank stopped by SIGSTOP can neither save, exit nor answer SIGTERM: it is killed (SIGKILL) at once"
                + " when the attempt is ending (a rank failed or exited 0, a signal), otherwise after 10 s stopped.",
            "",
            "Online recovery: when every rank declares that its job recovers online (the runtime's OnlineProtection event), the exit"
                + " of a rank (a crash, --fail, kill -9, a stopped rank killed) does not end the attempt: the others keep"
                + " running, shrink their group and report 'recovered' (or 'recovery-impossible', and exit). The attempt"
                + " fails, and is relaunched from disk as above, only when they cannot recover or report nothing within"
                + " the group's failure-detection time (TIME_MAX_WAIT + SLEEP_THREAD_TIME + GROUP_VERIFY_TIMEOUT) + 30 s.",
            "",
            "Without --secret-file the launcher generates the job secret in java.io.tmpdir as"
                + " ironloop-launcher-<pid>-<job>-<random>.secret (owner-only) and deletes it on every exit it sees"
                + " (end of the job, a usage error, SIGINT/SIGTERM); after a kill -9, the next launcher of the same user"
                + " deletes the secrets of launchers that are no longer running.",
            ""},
        footerHeading = "%nRank environment:%n",
        footer = {
            "  IRONLOOP_RANK         this rank, 0 <= R < N",
            "  IRONLOOP_SIZE         N + S, the number of ranks, spares included",
            "  IRONLOOP_JOB          the job id",
            "  IRONLOOP_PEERS        127.0.0.1:port of every rank, in rank order",
            "  IRONLOOP_SECRET_FILE  the job secret (owner-only file)",
            "  IRONLOOP_ATTEMPT      0 at the first launch, then 1, 2, ...",
            "  IRONLOOP_LAUNCHER     host:port of the launcher's control socket",
            "  IRONLOOP_PARAMS       absolute path of --params, when given",
            "  IRONLOOP_SPARES       S (--spares): the last S ranks are spares",
            "  IRONLOOP_HOST         this rank's host: the host name, or host-K with --fake-hosts",
            "  IRONLOOP_SITE         this rank's site, site-K with --fake-sites (absent otherwise); after a",
            "                        site was lost, where the site table moved the rank (e.g. spare-0)",
            "  IRONLOOP_SITE_PROTECTORS  with --fake-sites: SITE=127.0.0.1:port of every site's protector, SITE/NODE=… of every node's",
            "  IRONLOOP_SITE_TABLE   with --fake-sites: the version of the site table the rank starts with",
            "",
            "Ranks report progress through the runtime's event stream, which the launcher subscribes to",
            "(io.ironloop.launcher.rank.LauncherEvents: iteration, plan, saved, restored, protection, shrunk,",
            "recovered, recovery-impossible, the application's own); --fail acts on it.",
            "",
            "Exit status: 0 when every rank of the last attempt exited 0; 2 usage error",
            "(also a fault that cannot or did not fire); 130 / 143 after SIGINT / SIGTERM;",
            "otherwise the status of the first failed rank of the last attempt",
            "(137 = killed by SIGKILL).",
            "",
            "Example:",
            "  ironloop run -n 4 --restarts 3 --params ft.json --fail 1@5 -- com.example.Solver in.dat",
            "  ironloop run -n 4 --spares 1 --fake-hosts 2 --restarts 3 --params ft.json --fail 1@5 -- com.example.Solver"})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;

    @Option(names = {"-n", "--ranks"}, required = true, paramLabel = "N", description = "Number of rank JVMs.")
    int ranks;

    @Option(names = "--spares", paramLabel = "S", defaultValue = "0",
            description = "Also start S spare rank JVMs (ranks N to N+S-1, in the same group of N+S; IRONLOOP_SPARES=S):"
                    + " a runtime that recovers online lets them adopt a lost rank's work (default: ${DEFAULT-VALUE}).")
    int spares;

    @Option(names = "--fake-hosts", paramLabel = "K",
            description = "Tell the ranks they run on K hosts, as IRONLOOP_HOST=host-<r*K/M> for rank r of M = N+S"
                    + " (consecutive ranks share a host), to exercise failure-domain-aware partner placement on one"
                    + " machine (default: the real host name for every rank).")
    Integer fakeHosts;

    @Option(names = "--fake-sites", paramLabel = "S",
            description = "Tell the ranks they run on S sites, as IRONLOOP_SITE=site-<r*S/M> for rank r of M = N+S"
                    + " (consecutive ranks share a site), and protect the sites (docs/sites.md): one cluster protector process"
                    + " per site ships its ranks' committed lines to the previous site's protector; a lost site (verified by a"
                    + " third) has its lines placed where the table moves its ranks, and a relaunch starts them there; a site"
                    + " that --fake-hosts gives several nodes gets a protector process per node, the cluster protector failing"
                    + " over to the next node (default: no sites).")
    Integer fakeSites;

    @Option(names = "--spare-sites", paramLabel = "K", defaultValue = "0",
            description = "With --fake-sites: K spare sites (spare-0 ...), each with its protector and no ranks, where a lost"
                    + " site's ranks go; 0: to the site of its protector (default: ${DEFAULT-VALUE}).")
    int spareSites;

    @Option(names = "--restarts", paramLabel = "K",
            description = "Relaunch the whole job up to K times after a failure (default: 0; unlimited with"
                    + " --restart-strategy failure-rate).")
    Integer restarts;

    @Option(names = "--restart-strategy", paramLabel = "NAME", defaultValue = RestartStrategy.ExponentialDelay.NAME,
            description = "When to relaunch, as in Flink: exponential-delay (--backoff doubling up to --max-backoff),"
                    + " fixed-delay (--backoff every time) or failure-rate (--backoff every time while at most"
                    + " --max-failures-per-interval failures fall within --failure-rate-interval) (default: ${DEFAULT-VALUE}).")
    String restartStrategy;

    @Option(names = "--max-failures-per-interval", paramLabel = "N", defaultValue = "1",
            description = "failure-rate: failures allowed within --failure-rate-interval (default: ${DEFAULT-VALUE}).")
    int maxFailuresPerInterval;

    @Option(names = "--failure-rate-interval", paramLabel = "DURATION", defaultValue = "1m", converter = DurationConverter.class,
            description = "failure-rate: the sliding window the failures are counted in (default: ${DEFAULT-VALUE}).")
    Duration failureRateInterval;

    @Option(names = "--params", paramLabel = "FILE",
            description = "Parameter file (JSON); ranks get its absolute path as IRONLOOP_PARAMS.")
    Path params;

    @Option(names = "--fresh",
            description = "Start over: the first attempt ignores the checkpoints and the completion record in FT_FOLDER"
                    + " (IRONLOOP_FRESH=true; nothing is deleted before newer lines replace it); restarts resume.")
    boolean fresh;

    @Option(names = "--cp", paramLabel = "CLASSPATH",
            description = "Class path entries added after the launcher's own (repeatable; ':'-separated).")
    List<String> classpath = new ArrayList<>();

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = "Option for every rank JVM, e.g. --jvm-opt=-Xmx2g (repeatable).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--fail", paramLabel = "RANK@ITER[,RANK@ITER...]",
            description = "Send a real SIGKILL to RANK when it reports reaching iteration ITER, once per run;"
                    + " ITER 0 is as soon as the rank connects, before its first iteration (repeatable).")
    List<String> fails = new ArrayList<>();

    @Option(names = "--preempt", paramLabel = "RANK@itITER|RANK@SECONDS[,...]",
            description = "Send a real SIGTERM to RANK when it reports reaching iteration ITER (2@it3), or SECONDS after"
                    + " the job's start (0@5; a fast run can end first and the fault never fires), once per run (repeatable).")
    List<String> preempts = new ArrayList<>();

    @Option(names = "--iterations", paramLabel = "N",
            description = "The application's last iteration number: a --fail or --preempt R@itI past it is a usage error."
                    + " Ranks may declare it themselves (Ironloop.plan; loops with a fixed step count do).")
    Long iterations;

    @Option(names = "--job", paramLabel = "ID", description = "Job id (default: generated, ironloop-<8 hex>).")
    String job;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "Job secret to use instead of a generated one; must not be accessible to group or others.")
    Path secretFile;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long ranks may take to save and exit after SIGTERM/SIGINT before SIGKILL"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "8s", converter = DurationConverter.class,
            description = "After a rank fails, how long the others may take to detect it (heartbeats), save and exit"
                    + " by themselves before they get SIGTERM (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--backoff", paramLabel = "DURATION", defaultValue = "500ms", converter = DurationConverter.class,
            description = "Delay before the first restart; doubles for each further one with exponential-delay, the same"
                    + " every time with fixed-delay and failure-rate (default: ${DEFAULT-VALUE}).")
    Duration backoff;

    @Option(names = "--max-backoff", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "Cap of the exponential-delay restart delay (default: ${DEFAULT-VALUE}).")
    Duration maxBackoff;

    @Option(names = "--storm-limit", paramLabel = "N", defaultValue = "3",
            description = "Stop restarting after N attempts in a row fail at the same iteration (default: ${DEFAULT-VALUE}).")
    int stormLimit;

    @Option(names = "--timeline", description = "Print the timeline of rank and supervisor events to standard error at the end"
            + " (it is always written to FT_FOLDER/" + TimelineFile.NAME + "; see 'ironloop timeline').")
    boolean timeline;

    @Option(names = "--dashboard", paramLabel = "PORT", arity = "0..1", preprocessor = OptionalPort.class,
            description = "Serve the live dashboard on 127.0.0.1:PORT while the job runs (no PORT or 0: a port the kernel"
                    + " chooses); the address goes to standard error. 'ironloop dashboard FT_FOLDER' shows it afterwards.")
    Integer dashboard;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve the launcher's metrics to Prometheus at http://HOST:PORT/metrics while the job runs (0: a port"
                    + " the kernel chooses; the address goes to standard error): attempts, relaunches, rank failures, online"
                    + " recoveries, ranks alive, the newest committed iteration. The ranks' own: METRICS_PORT.")
    Integer metricsPort;

    @Parameters(index = "0", paramLabel = "MAINCLASS|JAR", description = "Main class, or a JAR with a Main-Class.")
    String application;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the application.")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() {
        PrintStream out = LineBridge.printStream(commandSpec.commandLine().getOut());
        PrintStream err = LineBridge.printStream(commandSpec.commandLine().getErr());
        LaunchSpec spec = spec(out, err);
        Launcher launcher = new Launcher(spec);
        LaunchResult result;
        SignalForwarding forwarding = SignalForwarding.install(launcher);
        try (RunObservers closing = observers = RunObservers.start(folder, dashboard, metricsPort, err)) {
            result = launcher.execute();
        } finally {
            forwarding.close();
        }
        if (timeline) {
            result.printTimeline(err);
        }
        out.flush();
        err.flush();
        return result.exitStatus();
    }

    /** The job's checkpoint folder, as the ranks will resolve FT_FOLDER: where the timeline file goes. */
    private Path folder;
    /** Started once the spec is valid; the launcher's event listener hands every event to them. */
    private volatile RunObservers observers;

    private LaunchSpec spec(PrintStream out, PrintStream err) {
        try {
            Path cwd = Path.of("").toAbsolutePath();
            LaunchSpec.Builder b = LaunchSpec.builder().ranks(ranks).spares(spares).workingDirectory(cwd)
                    .out(out).err(err)
                    .application(Application.of(application, cwd)).arguments(arguments)
                    .grace(grace).settle(settle).fresh(fresh).stormLimit(stormLimit)
                    .restartStrategy(RestartStrategy.of(restartStrategy, backoff, maxBackoff, maxFailuresPerInterval,
                            failureRateInterval));
            if (restarts != null) {
                b.restarts(restarts);
            }
            classpath.forEach(b::classpath);
            jvmOptions.forEach(b::jvmOption);
            for (String f : fails) {
                Fault.parseKills(f).forEach(b::kill);
            }
            for (String p : preempts) {
                Fault.parsePreemptions(p).forEach(b::fault);
            }
            if (iterations != null) {
                b.lastIteration(iterations);
            }
            if (job != null) {
                b.jobId(job);
            }
            if (fakeHosts != null) {
                b.fakeHosts(fakeHosts);
            }
            var ranksParameters = params != null ? RankParameters.load(params, System.getenv(), Map.of())
                    : RankParameters.environment(System.getenv());
            if (fakeSites != null) {
                b.fakeSites(fakeSites).protectSites(new SiteProtection(spareSites, ranksParameters.get(GroupKeys.SITE_HEARTBEAT),
                        ranksParameters.get(GroupKeys.SITE_TIMEOUT), ranksParameters.get(GroupKeys.SITE_ENCRYPT)));
            } else if (spareSites > 0) {
                throw new IllegalArgumentException("--spare-sites needs --fake-sites: spare sites replace lost sites");
            }
            if (params != null) {
                b.params(params);
            }
            b.folder(ranksParameters.get(EngineKeys.FT_FOLDER)); // where ironloop halt DIR leaves its request
            b.recoveryDeadline(LaunchSpec.recoveryDeadline(GroupConfig.from(ranksParameters)));
            folder = cwd.resolve(ranksParameters.get(EngineKeys.FT_FOLDER)).normalize();
            b.eventListener(e -> observers.accept(e));
            if (secretFile != null) {
                JobSecret.load(secretFile.toAbsolutePath());
                b.secretFile(secretFile);
            }
            LaunchSpec spec = b.build();
            spec.application().verifyOn(spec.rankClasspath(), cwd);
            return spec;
        } catch (IllegalArgumentException | IllegalStateException | ConfigurationException e) {
            throw new CommandLine.ParameterException(commandSpec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * Adapts the command's {@link PrintWriter} (which {@code Main.execute} may point at a caller's stream)
     * to the {@link PrintStream} the launcher writes to: bytes are decoded as UTF-8 and handed over line by
     * line, so lines from different ranks stay whole.
     */
    static final class LineBridge extends OutputStream {
        private final PrintWriter writer;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        private LineBridge(PrintWriter writer) {
            this.writer = writer;
        }

        static PrintStream printStream(PrintWriter writer) {
            return new PrintStream(new LineBridge(writer), true, StandardCharsets.UTF_8);
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                flush();
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == '\n') {
                    line.write(bytes, start, i + 1 - start);
                    flush();
                    start = i + 1;
                }
            }
            line.write(bytes, start, offset + length - start);
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0) {
                writer.write(line.toString(StandardCharsets.UTF_8));
                line.reset();
            }
            writer.flush();
        }
    }

    /** Parses durations such as {@code 30s}, {@code 500ms}, {@code 2m}; a bare number is seconds. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Units.parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
