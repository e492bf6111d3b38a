package io.ironloop.cli;

import io.ironloop.benchmarks.group.GroupBench;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ironloop bench group}. */
@Command(name = "group", mixinStandardHelpOptions = true,
        description = {"Measure the process group with N rank JVMs on loopback: allreduce latency (8 bytes) and bandwidth (64 MiB),",
            "256 MiB point to point in 1 MiB messages against a raw SocketChannel transfer in the same run, detection time",
            "after kill -9 of a non-leader, of the leader and after SIGSTOP (SLEEP_THREAD_TIME 1 s, TIME_MAX_WAIT 5 s),",
            "and heartbeat messages per interval counted on the wire. Takes about 3 minutes, 4 more with --scaling."})
final class BenchGroupCommand implements Callable<Integer> {
    @Option(names = "-n", defaultValue = "4", description = "Ranks (JVMs) of the measured jobs, at least 2. Default ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = "--scaling", description = "Also count heartbeat messages per interval at 4, 8 and 16 ranks.")
    boolean scaling;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions of every figure (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--quick", description = {"Tiny sizes, 200 ms / 1 s detection, 2 repetitions, no warm-up: checks in about 20 s",
        "that the benchmark runs (its figures mean little)."})
    boolean quick;

    @Override
    public Integer call() throws Exception {
        if (ranks < 2 || ranks > 64) {
            spec.commandLine().getErr().println("ironloop bench group: -n must be between 2 and 64, not " + ranks);
            return Main.USAGE;
        }
        GroupBench.Options o;
        if (quick) {
            o = GroupBench.Options.quick(ranks, scaling);
        } else {
            if (!BenchCommand.enoughRepetitions("group", repetitions, spec.commandLine().getErr())) {
                return Main.USAGE;
            }
            GroupBench.Options s = GroupBench.Options.standard(ranks, scaling);
            o = new GroupBench.Options(s.ranks(), repetitions, repetitions, s.warmup(), s.latencyIterations(), s.allreduceBytes(), s.p2pBytes(),
                    s.messageBytes(), s.interval(), s.timeout(), s.heartbeatWindows(), s.scaling(), s.mpiReference());
        }
        Map<String, Object> figures = GroupBench.run(o, spec.commandLine().getErr());
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return Main.OK;
    }
}
