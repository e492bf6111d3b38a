package io.ironloop.cli;

import io.ironloop.benchmarks.device.DeviceBench;
import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceSet;
import io.ironloop.device.OpenClUnavailableException;
import io.ironloop.examples.device.DeviceApp;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop bench devices}. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"The device examples (spmv, floyd, summa, shallow-water) split as the CPPC + HPL paper's Table 5: run",
            "time without Ironloop, instrumented (tracking, registration, checkpoint calls that never fire) and with",
            "checkpoints (consistency protocol, snapshot, background write); bytes the protocol brings home against copying",
            "every registered array; restart split into reading and positioning; and the tracked device-to-host transfer",
            "against a raw clEnqueueReadBuffer of the same bytes. See benchmarks/README.md."})
final class BenchDevicesCommand implements Callable<Integer> {
    @Option(names = "--device", paramLabel = "java|opencl",
            description = "Device kind of the examples (default: opencl where PoCL or another OpenCL driver answers, else java).")
    String device;

    @Option(names = "--devices", paramLabel = "K", defaultValue = "2", description = "Devices (default: ${DEFAULT-VALUE}).")
    int devices;

    @Option(names = "--size", paramLabel = "test|demo|bench", defaultValue = "bench",
            description = {"Example size (default: ${DEFAULT-VALUE}, runs of a few seconds; demo: about a second; test: a few tens of ms,",
                "for a quick check)."})
    String size;

    @Option(names = "--repetitions", defaultValue = "5", description = "Measured repetitions after one warm-up (>= 5). Default ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "12",
            description = {"Pairs of runs, each in a JVM of its own, plain and instrumented in ABBA order, for the tracking overhead's",
                "median and 95 % interval (default: ${DEFAULT-VALUE}; a 95 % interval inside the extremes needs 9 or more)."})
    int pairs;

    @Option(names = "--dir", description = "Directory for the checkpoint folders (default: a new temporary directory, removed afterwards).")
    Path dir;

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintStream err = RunCommand.LineBridge.printStream(spec.commandLine().getErr());
        if (!BenchCommand.enoughRepetitions("devices", repetitions, spec.commandLine().getErr())) {
            return Main.USAGE;
        }
        DeviceKind kind;
        if (device == null) {
            kind = DeviceSet.openClUnavailableReason().isEmpty() ? DeviceKind.OPENCL : DeviceKind.JAVA;
        } else if (device.equals("java") || device.equals("opencl")) {
            kind = device.equals("java") ? DeviceKind.JAVA : DeviceKind.OPENCL;
        } else {
            err.println("ironloop bench devices: --device must be java or opencl, not '" + device + "'");
            return Main.USAGE;
        }
        if (devices < 1 || !DeviceApp.SIZES.contains(size) || pairs < 1) {
            err.println("ironloop bench devices: --devices must be at least 1, --size test, demo or bench, --pairs at least 1");
            return Main.USAGE;
        }
        DeviceKind chosen = kind;
        Map<String, Object> figures;
        try {
            figures = BenchCommand.measureIn(dir, "devices", where -> DeviceBench.run(chosen, devices, size, repetitions, pairs, where, err));
        } catch (OpenClUnavailableException e) {
            err.println("ironloop bench devices: " + e.getMessage());
            return 1;
        }
        BenchCommand.print(figures, json, spec.commandLine().getOut());
        return 0;
    }
}
