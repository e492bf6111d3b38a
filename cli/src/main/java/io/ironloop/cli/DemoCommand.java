package io.ironloop.cli;

import io.ironloop.ConfigurationException;
import io.ironloop.Folders;
import io.ironloop.launcher.Application;
import io.ironloop.launcher.Fault;
import io.ironloop.launcher.LaunchResult;
import io.ironloop.launcher.LaunchSpec;
import io.ironloop.launcher.Launcher;
import io.ironloop.launcher.SignalForwarding;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.cli.view.IterationProgress;
import io.ironloop.cli.view.ProgressBar;
import io.ironloop.config.ParameterKey;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.GroupConfig;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import picocli.CommandLine.Spec;

/**
 * {@code ironloop demo}: a thin wrapper over {@code ironloop run}. It runs an example application supervised,
 * with restarts, in a fresh checkpoint folder, with real faults from {@code --fail} / {@code --preempt} only;
 * then obtains the failure-free reference (a separate complete run without faults, or its cached result for
 * the same app, size, ranks, settings and build); prints the timeline of what the supervisor and the ranks
 * reported; and ends with the result and the verdict. Exit 0 only when the results are bit-identical.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Run an example under the launcher with real faults and check its result bit for bit.",
            "",
            "The demo injects real faults (SIGKILL at an iteration, SIGTERM at an iteration or after a delay), lets the",
            "supervisor restart the application from its checkpoints, and compares its result bit for bit with a",
            "failure-free run. Without --fail and --preempt it injects one of each, by progress so that both fire on",
            "any machine (bare 'ironloop demo' is 'demo fwi --ranks 4 --fail 1@5 --preempt 2@it2', about a minute on",
            "two cores).",
            "",
            "Progress and the timeline go to standard error. Standard output ends with three lines:",
            "'relaunches=<K> online_recoveries=<M>' (how many times the supervised run was relaunched from disk, and how",
            "many losses its ranks recovered from online, in the same JVMs), 'result sha256=<hex>' and",
            "'bit-identical to failure-free run: yes|no (reference sha256=<hex>)'.",
            ""},
        footer = {"", "Exit status: 0 bit-identical; 1 different, or a run failed; 2 usage error (also a fault that never fired)."})
final class DemoCommand implements Callable<Integer> {
    private static final List<String> RANK_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    private static final Pattern RESULT = Pattern.compile("result sha256=([0-9a-f]{64})");
    private static final int LOG_TAIL = 40;
    /** The name of the whole-site-loss demo, which is not one of DemoApp's apps. */
    private static final String SITES = "sites";
    /** A reference run that fails (say, its group never formed on a loaded machine) is run again from scratch, once. */
    private static final int REFERENCE_RUNS = 2;
    /** An slf4j-simple line: [thread] LEVEL logger - message. */
    private static final Pattern LOGGED = Pattern.compile("\\[[^]]*] (WARN|ERROR) (io\\.ironloop\\.\\S+)( - .*)");

    @Spec
    CommandSpec commandSpec;

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "APP", defaultValue = "fwi",
            description = "fwi (full-waveform inversion, default), quickstart (DeLIA's Listing 8), heat (2-D heat on blocks), jacobi (the same heat on the loop skeleton), circulation (a matrix power by data circulation on the skeleton), swing (a gas-storage valuation on the skeleton), lbm"
                    + " (lattice-Boltzmann flow past a cylinder on blocks), or on heterogeneous devices in one process: spmv, floyd,"
                    + " summa (malleable) or shallow-water (pseudo-malleable); or sites (heat on 3 sites + 1 spare site, one"
                    + " whole site lost: demo sites --help).")
    String appName;

    @Option(names = "--ranks", paramLabel = "N", description = "Rank JVMs (default: 4; the device apps run in one process).")
    Integer ranksOption;

    @Option(names = "--device", paramLabel = "java|opencl",
            description = "Device apps (spmv, floyd, summa, shallow-water): the pure-Java CPU device (default) or OpenCL.")
    String device;

    @Option(names = "--devices", paramLabel = "K", description = "Device apps: devices of the first attempt (default: 1).")
    Integer devices;

    @Option(names = "--restart-devices", paramLabel = "K2",
            description = "Device apps: devices of the restarted attempts (malleable apps re-split, pseudo-malleable ones map their virtual devices).")
    Integer restartDevices;

    private int ranks;

    @Option(names = "--restart-ranks", paramLabel = "M",
            description = "Rank apps: the attempts after the first run use M ranks (fewer or more than --ranks). Without --fail and"
                    + " --preempt the first run's every rank is killed at the app's default iteration, so that the job must restart."
                    + " The reference stays a failure-free run on --ranks.")
    Integer restartRanks;

    @Option(names = "--spares", paramLabel = "S", defaultValue = "0",
            description = "Also start S spare rank JVMs that adopt a lost rank's work (run --spares; default: ${DEFAULT-VALUE}).")
    int spares;

    @Option(names = "--fake-hosts", paramLabel = "K",
            description = "Spread the ranks over K fake hosts (IRONLOOP_HOST=host-<r*K/M>; run --fake-hosts).")
    Integer fakeHosts;

    @Option(names = "--scheduler", paramLabel = "ds|ctws",
            description = "Workload scheduler of the tasks (WORKLOAD_SCHEDULER; default: the parameter file's, else DS).")
    WorkloadScheduler scheduler;

    @Option(names = "--fail", paramLabel = "RANK@ITER[,...]", description = "SIGKILL RANK when it reaches iteration ITER (repeatable).")
    List<String> fails = new ArrayList<>();

    @Option(names = "--preempt", paramLabel = "RANK@itITER|RANK@SECONDS[,...]",
            description = "SIGTERM RANK when it reaches iteration ITER (2@it3), or SECONDS after the start (repeatable).")
    List<String> preempts = new ArrayList<>();

    @Option(names = "--params", paramLabel = "FILE",
            description = "Parameter file for the ranks. If it names FT_FOLDER, that folder must be empty or absent"
                    + " (the demo never deletes checkpoints); otherwise a temporary folder is used.")
    Path params;

    @Option(names = "--restarts", paramLabel = "K", defaultValue = "3", description = "Restarts allowed (default: ${DEFAULT-VALUE}).")
    int restarts;

    @Option(names = "--size", paramLabel = "test|demo", defaultValue = "demo",
            description = "Problem size (default: ${DEFAULT-VALUE}; test runs in seconds).")
    String size;

    @Option(names = "--no-cache", description = "Run the failure-free reference even if a cached result fits, and do not cache it.")
    boolean noCache;

    @Option(names = "--cache-dir", paramLabel = "DIR", hidden = true, description = "Where reference results are cached.")
    Path cacheDir;

    private final Instant start = Instant.now();
    private Duration recoveryDeadline = LaunchSpec.defaultRecoveryDeadline();
    private PrintStream err;
    private PrintStream log;

    @Override
    public Integer call() throws IOException {
        err = RunCommand.LineBridge.printStream(commandSpec.commandLine().getErr());
        PrintStream out = RunCommand.LineBridge.printStream(commandSpec.commandLine().getOut());
        if (SITES.equals(appName)) {
            return sites(out);
        }
        DemoApp app = app();
        Path cwd = Path.of("").toAbsolutePath();
        List<Fault> faults = faults(app);
        Path file = params == null ? null : cwd.resolve(params).normalize();
        Optional<Path> named = namedFolder(file, cwd);
        if (named.isPresent()) {
            requireFresh(named.get(), file);
        }
        Path temp = Files.createTempDirectory("ironloop-demo-");
        boolean keep = false;
        try (PrintStream logStream = new PrintStream(new FileOutputStream(temp.resolve("demo.log").toFile()), true, StandardCharsets.UTF_8)) {
            log = logStream;
            Path folder = named.orElse(temp.resolve("checkpoints"));
            Path ranksParams = file != null ? file : writeDefaultParams(temp.resolve("ironloop-demo.json"), folder);
            Parameters effective = effectiveParameters(ranksParams);
            recoveryDeadline = recoveryDeadline(effective);
            List<String> args = arguments(app);
            header(app, effective, folder, ranksParams, temp, faults, args);

            Run supervised = launch("supervised", app, args, ranksParams, folder, faults, restartRanks == null ? restarts : 0, ranks);
            if (interrupted(supervised)) {
                return supervised.result().exitStatus();
            }
            printTimeline(supervised.result());
            int relaunches = supervised.result().relaunches();
            int onlineRecoveries = supervised.result().onlineRecoveries();
            if (restartRanks != null) {
                if (supervised.result().exitStatus() != 0 && supervised.result().exitStatus() != 2 && restarts > 0) {
                    err.println("demo: the first run stopped (" + supervised.result().summary() + "); restarting on " + restartRanks
                            + " ranks over the same checkpoints");
                    supervised = launch("restarted", app, args, ranksParams, folder, List.of(), restarts - 1, restartRanks);
                    if (interrupted(supervised)) {
                        return supervised.result().exitStatus();
                    }
                    printTimeline(supervised.result());
                    relaunches += 1 + supervised.result().relaunches();
                    onlineRecoveries += supervised.result().onlineRecoveries();
                } else if (supervised.result().exitStatus() == 0) {
                    err.println("demo: the first run finished by itself: no attempt on " + restartRanks + " ranks was needed");
                }
            }
            if (supervised.result().exitStatus() != 0 || supervised.sha().isEmpty()) {
                keep = true;
                return failed("the supervised run", supervised, temp);
            }
            Optional<String> reference = reference(app, args, effective, ranksParams, temp);
            if (reference.isEmpty()) {
                keep = true;
                return 1;
            }
            boolean same = reference.get().equals(supervised.sha().get());
            out.println("relaunches=" + relaunches + " online_recoveries=" + onlineRecoveries);
            out.println("result sha256=" + supervised.sha().get());
            out.println("bit-identical to failure-free run: " + (same ? "yes" : "no") + " (reference sha256=" + reference.get() + ")");
            out.flush();
            keep = !same;
            if (!same) {
                err.println("demo: the results differ; the checkpoints and the full log are kept in " + temp);
            }
            return same ? 0 : 1;
        } finally {
            err.flush();
            if (!keep) {
                Folders.deleteTree(temp);
            }
        }
    }

    /** {@code demo sites}: its own scenario (SitesDemo); only --size and --restarts apply. */
    private int sites(PrintStream out) throws IOException {
        if (ranksOption != null && ranksOption != 3 || !fails.isEmpty() || !preempts.isEmpty() || spares != 0 || fakeHosts != null
                || restartRanks != null || params != null || scheduler != null || device != null || devices != null || restartDevices != null) {
            throw usage("demo sites runs its own scenario (3 ranks on 3 sites + 1 spare site, site-1 lost): only --size and --restarts apply");
        }
        if (!size.equals("test") && !size.equals("demo")) {
            throw usage("--size must be test or demo, not '" + size + "'");
        }
        try {
            return new SitesDemo(size, restarts, out, err).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    private boolean interrupted(Run run) {
        int status = run.result().exitStatus();
        if (status == 130 || status == 143) {
            err.println("demo: interrupted: " + run.result().summary());
            return true;
        }
        return false;
    }

    /** Adds to the demo's help what the app named on the command line runs: {@code demo APP --help}. */
    static void appHelp(CommandLine demo) {
        DemoCommand command = demo.getCommand();
        demo.getHelpSectionMap().put("app", help -> command.appHelp());
        List<String> keys = new ArrayList<>(demo.getHelpSectionKeys());
        keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), "app");
        demo.setHelpSectionKeys(keys);
    }

    private String appHelp() {
        if (SITES.equals(appName)) {
            return SitesDemo.HELP;
        }
        Optional<DemoApp> named = DemoApp.named(appName);
        if (named.isEmpty()) {
            return "";
        }
        DemoApp app = named.get();
        return String.format(Locale.ROOT, "%nAPP %s: %s.%n  main class: %s%n  arguments: %s%s%n  --size test: %s (%s)%n"
                + "  --size demo: %s (%s)%n  by hand: ironloop run -n N --params FILE -- %s %s%n", app.commandName(), app.title(),
                app.mainClass(), app.usage(), app.onDevices() ? " [--device java|opencl] [--devices K] [--restart-devices K2]" : "",
                String.join(" ", app.arguments("test")), app.describe("test"), String.join(" ", app.arguments("demo")),
                app.describe("demo"), app.mainClass(), String.join(" ", app.arguments("demo")));
    }

    private DemoApp app() {
        return DemoApp.named(appName).orElseThrow(() -> usage("unknown app '" + appName + "': use " + DemoApp.names()));
    }

    /** The app's arguments, with the device options for a device app. */
    private List<String> arguments(DemoApp app) {
        List<String> args = new ArrayList<>(app.arguments(size));
        if (app.onDevices()) {
            args.addAll(List.of("--device", device == null ? "java" : device, "--devices", String.valueOf(devices == null ? 1 : devices)));
            if (restartDevices != null) {
                args.addAll(List.of("--restart-devices", String.valueOf(restartDevices)));
            }
        }
        return args;
    }

    private List<Fault> faults(DemoApp app) {
        if (app.onDevices()) {
            if (ranksOption != null && ranksOption != 1) {
                throw usage(app.commandName() + " runs in one process on its devices: use --devices, not --ranks " + ranksOption);
            }
            if (device != null && !device.equals("java") && !device.equals("opencl")) {
                throw usage("--device must be java or opencl, not '" + device + "'");
            }
            if (devices != null && devices < 1 || restartDevices != null && restartDevices < 1) {
                throw usage("--devices and --restart-devices must be at least 1");
            }
            if ("opencl".equals(device)) {
                io.ironloop.device.DeviceSet.openClUnavailableReason().ifPresent(why -> {
                    throw usage("--device opencl: " + why + "; or use --device java");
                });
            }
        } else if (device != null || devices != null || restartDevices != null) {
            throw usage("--device, --devices and --restart-devices are for the device apps (" + DeviceDemo.names() + "), not " + app.commandName());
        }
        ranks = ranksOption != null ? ranksOption : app.onDevices() ? 1 : 4;
        if (ranks < 1) {
            throw usage("--ranks must be at least 1, got " + ranks);
        }
        if (restartRanks != null && (app.onDevices() || restartRanks < 1)) {
            throw usage(app.onDevices() ? "--restart-ranks is for the rank apps; " + app.commandName() + " takes --restart-devices"
                    : "--restart-ranks must be at least 1, got " + restartRanks);
        }
        for (int n : restartRanks == null ? new int[] {ranks} : new int[] {ranks, restartRanks}) {
            if (n > app.maxRanks()) {
                throw usage(app.commandName() + " runs on at most " + app.maxRanks() + " ranks (its parts), not " + n);
            }
        }
        if (restarts < 0) {
            throw usage("--restarts must not be negative, got " + restarts);
        }
        if (spares < 0) {
            throw usage("--spares must not be negative, got " + spares);
        }
        if (fakeHosts != null && (fakeHosts < 1 || fakeHosts > ranks + spares)) {
            throw usage("--fake-hosts must be between 1 and the " + (ranks + spares) + " rank JVMs, got " + fakeHosts);
        }
        if (!size.equals("test") && !size.equals("demo")) {
            throw usage("--size must be test or demo, not '" + size + "'");
        }
        List<String> f = fails;
        List<String> p = preempts;
        if (f.isEmpty() && p.isEmpty()) {
            f = app.defaultFails(ranks, size);
            p = app.defaultPreempts(ranks, size);
            if (restartRanks != null) { // the whole job stops where the default kill strikes, so that it must restart
                String at = f.isEmpty() ? "1" : f.get(0).substring(f.get(0).indexOf('@') + 1);
                f = java.util.stream.IntStream.range(0, ranks).mapToObj(r -> r + "@" + at).toList();
                p = List.of();
            }
        }
        List<Fault> faults = new ArrayList<>();
        try {
            for (String item : f) {
                faults.addAll(Fault.parseKills(item));
            }
            for (String item : p) {
                faults.addAll(Fault.parsePreemptions(item));
            }
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        return faults;
    }

    /** The checkpoint folder the parameter file itself names, resolved against the working directory. */
    private Optional<Path> namedFolder(Path file, Path cwd) {
        if (file == null) {
            return Optional.empty();
        }
        Parameters fileOnly = load(file, Map.of(), Map.of());
        return fileOnly.isSet(EngineKeys.FT_FOLDER) ? Optional.of(cwd.resolve(fileOnly.get(EngineKeys.FT_FOLDER)).normalize())
                : Optional.empty();
    }

    private void requireFresh(Path folder, Path file) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        if (!Files.isDirectory(folder)) {
            throw usage("FT_FOLDER " + folder + " (from " + file + ") is not a directory");
        }
        try (Stream<Path> s = Files.list(folder)) {
            if (s.findAny().isPresent()) {
                throw usage("FT_FOLDER " + folder + " (from " + file + ") is not empty: the demo needs a fresh checkpoint"
                        + " folder and never deletes one; empty it yourself, name another FT_FOLDER, or leave FT_FOLDER out"
                        + " to use a temporary folder");
            }
        }
    }

    private Path writeDefaultParams(Path file, Path folder) throws IOException {
        Files.writeString(file, "{\n"
                + "  \"FT_FOLDER\": \"" + folder.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\",\n"
                + "  \"CHECKPOINTING_GLOBAL_ITERATION\": 1,\n"
                // a restart on other ranks resumes from disk: every snapshot goes there, so that it resumes near the kill
                + (restartRanks != null ? "  \"DISK_EVERY\": 1,\n" : "")
                + "  \"TRIGGER_SIGNAL\": true,\n"
                + "  \"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": 5, \"SLEEP_THREAD_TIME\": 1},\n"
                + "  \"WORKLOAD_SCHEDULER\": \"DS\"\n"
                + "}\n");
        return file;
    }

    /** How long the survivors of a loss have to report an online recovery, from the ranks' group settings. */
    private Duration recoveryDeadline(Parameters effective) {
        try {
            return LaunchSpec.recoveryDeadline(GroupConfig.from(effective));
        } catch (ConfigurationException e) {
            throw usage(e.getMessage());
        }
    }

    private Parameters effectiveParameters(Path file) {
        Map<String, String> overrides = new LinkedHashMap<>();
        if (scheduler != null) {
            overrides.put(RuntimeKeys.WORKLOAD_SCHEDULER.name(), scheduler.name());
        }
        return load(file, System.getenv(), overrides);
    }

    private Parameters load(Path file, Map<String, String> env, Map<String, String> overrides) {
        try {
            return RankParameters.load(file, env, overrides);
        } catch (ConfigurationException e) {
            throw usage(e.getMessage());
        }
    }

    private void header(DemoApp app, Parameters effective, Path folder, Path ranksParams, Path temp, List<Fault> faults,
            List<String> args) {
        err.printf(Locale.ROOT, "demo: %s (%s: %s) on %d ranks%s, scheduler %s, up to %d restarts%n", app.commandName(),
                app.title(), app.describe(size), ranks, spares > 0 ? " + " + spares + " spare" + (spares == 1 ? "" : "s") : "",
                effective.get(RuntimeKeys.WORKLOAD_SCHEDULER), restarts);
        List<String> plan = new ArrayList<>();
        for (Fault f : faults) {
            plan.add(f.describe() + " (" + (f instanceof Fault.AtIteration a
                    ? a.signalName() + " to rank " + f.rank() + " when it reaches iteration " + a.iteration()
                    : "SIGTERM to rank " + f.rank() + " " + ((Fault.Preemption) f).after().toMillis() / 1000.0 + " s after the start")
                    + ")");
        }
        err.println("demo: faults: " + (plan.isEmpty() ? "none" : String.join(", ", plan)));
        err.println("demo: checkpoints in " + folder + "; parameters " + ranksParams + "; full output in " + temp.resolve("demo.log"));
        if (restartRanks != null) {
            err.println("demo: attempts after the first run: ironloop run -n " + restartRanks + " over the same checkpoints, no faults");
        }
        err.println("demo: supervised run = ironloop run -n " + ranks + (spares > 0 ? " --spares " + spares : "")
                + (fakeHosts != null ? " --fake-hosts " + fakeHosts : "") + " --restarts " + restarts + " --params " + ranksParams
                + (scheduler != null ? " (WORKLOAD_SCHEDULER=" + scheduler + ")" : "")
                + faults.stream().map(f -> " " + f.describe()).collect(Collectors.joining())
                + " -- " + app.mainClass() + " " + String.join(" ", args));
    }

    /** What one launch produced: how it ended and rank 0's result, if it printed one. */
    private record Run(LaunchResult result, Optional<String> sha) {
    }

    private Run launch(String label, DemoApp app, List<String> args, Path ranksParams, Path folder, List<Fault> faults,
            int restartCount, int rankCount) {
        Path cwd = Path.of("").toAbsolutePath();
        AtomicReference<String> sha = new AtomicReference<>();
        log.println("==== " + label + " run ====");
        ProgressBar bar = ProgressBar.start("demo [" + label + "] iteration", 0); // only on a terminal
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(rankCount).spares(spares).restarts(restartCount).workingDirectory(cwd)
                .recoveryDeadline(recoveryDeadline)
                .application(new Application(app.mainClass(), Optional.empty())).arguments(args)
                .params(ranksParams).environment(EngineKeys.FT_FOLDER.environmentVariable(), folder.toString())
                .out(log).err(log)
                .eventListener(new IterationProgress(bar).andThen(e -> DemoTimeline.sentence(e).ifPresent(s -> progress(label,
                        e.time(), (e.source() == TimelineEvent.Source.RANK ? "[" + e.rank() + "] " : "") + s))))
                .outputListener((attempt, rank, stderr, line) -> {
                    if (!stderr) {
                        Matcher m = RESULT.matcher(line);
                        if (rank == 0 && m.matches()) {
                            sha.set(m.group(1));
                        }
                    } else {
                        shown(line).ifPresent(l -> progress(label, Instant.now(), "[" + rank + "] " + l));
                    }
                });
        if (scheduler != null) {
            b.environment(RuntimeKeys.WORKLOAD_SCHEDULER.environmentVariable(), scheduler.name());
        }
        if (fakeHosts != null) {
            b.fakeHosts(fakeHosts);
        }
        RANK_JVM.forEach(b::jvmOption);
        faults.forEach(b::fault);
        LaunchSpec spec;
        try {
            spec = b.build();
            spec.application().verifyOn(spec.rankClasspath(), cwd);
        } catch (IllegalArgumentException | IllegalStateException | ConfigurationException e) {
            bar.close();
            throw usage(e.getMessage());
        }
        Launcher launcher = new Launcher(spec);
        LaunchResult result;
        PrintStream plain = err;
        err = bar.lines(plain);
        try (bar; SignalForwarding forwarding = SignalForwarding.install(launcher)) {
            result = launcher.execute();
        } finally {
            err = plain;
        }
        log.println("==== " + label + " run: " + result.summary() + " ====");
        progress(label, Instant.now(), result.summary());
        return new Run(result, Optional.ofNullable(sha.get()));
    }

    /** The failure-free result: cached for this app, size, ranks, settings and build, or from a new run. */
    private Optional<String> reference(DemoApp app, List<String> args, Parameters effective, Path ranksParams, Path temp) throws IOException {
        List<String> description = new ArrayList<>(List.of("app=" + app, "args=" + args, "ranks=" + ranks,
                "scheduler=" + effective.get(RuntimeKeys.WORKLOAD_SCHEDULER)));
        if (spares > 0) {
            description.add("spares=" + spares); // idle in a run without losses, but they are ranks of the group
        }
        for (ParameterKey<?> key : RuntimeKeys.TABLE.keys()) {
            if (effective.isSet(key) && key != EngineKeys.FT_FOLDER) {
                description.add(key.name() + "=" + effective.get(key));
            }
        }
        String key = DemoReferenceCache.key(description, List.of(System.getProperty("java.class.path", "").split(File.pathSeparator)));
        DemoReferenceCache cache = new DemoReferenceCache(cacheDir != null ? cacheDir : DemoReferenceCache.defaultDirectory());
        if (!noCache) {
            Optional<String> cached = cache.find(key);
            if (cached.isPresent()) {
                err.println("demo: reference: the cached result of a complete failure-free run of the same app, size, ranks,"
                        + " settings and build (" + cache.file(key) + "; --no-cache runs it again)");
                return cached;
            }
        }
        err.println("demo: reference: a separate complete failure-free run (no faults, no restarts, its own checkpoint folder)");
        Run reference = null;
        for (int run = 1; run <= REFERENCE_RUNS; run++) {
            reference = launch("reference", app, args, ranksParams, temp.resolve("reference-checkpoints-" + run), List.of(), 0, ranks);
            if (reference.result().exitStatus() == 0 && reference.sha().isPresent()) {
                break;
            }
            if (run < REFERENCE_RUNS) {
                err.println("demo: the reference run did not complete (" + reference.result().summary() + "); running it again"
                        + " from the start in a fresh folder");
            }
        }
        if (reference.result().exitStatus() != 0 || reference.sha().isEmpty()) {
            failed("the failure-free reference run", reference, temp);
            return Optional.empty();
        }
        if (!noCache) {
            try {
                cache.store(key, reference.sha().get(), app + " " + args + " on " + ranks + " ranks");
            } catch (IOException e) {
                err.println("demo: could not cache the reference result in " + cache.directory() + ": " + e.getMessage());
            }
        }
        return reference.sha();
    }

    private void printTimeline(LaunchResult result) {
        err.println("demo: timeline of the supervised run (events the supervisor and the ranks emitted):");
        for (TimelineEvent e : result.timeline()) {
            DemoTimeline.line(result.started(), e).ifPresent(l -> err.println("  " + l));
        }
    }

    private int failed(String what, Run run, Path temp) throws IOException {
        log.flush();
        List<String> lines = Files.readAllLines(temp.resolve("demo.log"), StandardCharsets.UTF_8);
        err.println("demo: the last lines of the output:");
        lines.subList(Math.max(0, lines.size() - LOG_TAIL), lines.size()).forEach(l -> err.println("  | " + l));
        String why = run.result().exitStatus() != 0 ? run.result().summary() : "rank 0 printed no result line";
        err.println("demo: " + what + " failed: " + why + "; the checkpoints and the full output are kept in " + temp);
        return run.result().exitStatus() == 2 ? 2 : 1;
    }

    /**
     * The rank lines worth showing as progress: the application's own lines, Ironloop's errors and the storage
     * layer's warnings (a damaged line skipped), without the logger's thread prefix; not stack frames, not the
     * runtime's and group layer's warnings nor JGroups' logs (the timeline says what they mean).
     */
    static Optional<String> shown(String line) {
        if (line.isEmpty() || Character.isWhitespace(line.charAt(0))) {
            return Optional.empty();
        }
        if (!line.startsWith("[")) {
            return Optional.of(line);
        }
        Matcher m = LOGGED.matcher(line);
        boolean shown = m.matches() && (m.group(1).equals("ERROR") || m.group(2).startsWith("io.ironloop.core."));
        return shown ? Optional.of(m.group(1) + " " + m.group(2) + m.group(3)) : Optional.empty();
    }

    private void progress(String label, Instant when, String text) {
        synchronized (this) {
            err.printf(Locale.ROOT, "demo [%s] %7.1fs  %s%n", label, Duration.between(start, when).toMillis() / 1000.0, text);
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(commandSpec.commandLine(), message);
    }
}
