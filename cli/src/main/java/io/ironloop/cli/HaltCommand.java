package io.ironloop.cli;

import io.ironloop.config.Units;
import io.ironloop.launcher.HaltRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ironloop halt DIR [--after-next-checkpoint | --at TIME | --now | --cancel]}: asks the job running over
 * checkpoint folder DIR to stop cleanly, as SCR's {@code scr_halt} does, by leaving a {@link HaltRequest} there.
 */
@Command(name = "halt", mixinStandardHelpOptions = true,
        description = {"Ask the job that runs over checkpoint folder DIR (its FT_FOLDER) to stop cleanly, as SCR's scr_halt:"
                + " the `ironloop run` launcher of that job polls DIR/" + HaltRequest.FILE_NAME + " every second, then stops the"
                + " ranks as a SIGTERM would (they save their published state and exit), does not relaunch them, removes the"
                + " request and exits 0. Running the same command again resumes from the checkpoints.",
            "Without an option: --after-next-checkpoint. A request left while no job runs over DIR halts the next one at"
                + " once; --cancel withdraws it."})
final class HaltCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The job's checkpoint folder (FT_FOLDER).")
    Path dir;

    @ArgGroup(exclusive = true)
    When when;

    static final class When {
        @Option(names = "--after-next-checkpoint",
                description = "Stop once the next checkpoint of the whole job is committed (the default).")
        boolean afterNextCheckpoint;

        @Option(names = "--at", paramLabel = "TIME",
                description = "Stop at TIME: an ISO-8601 instant (2026-11-24T13:00:00Z) or a delay from now (+10m, +90s).")
        String at;

        @Option(names = "--now", description = "Stop now: the ranks save what they published last and exit.")
        boolean now;

        @Option(names = "--cancel", description = "Withdraw a request that has not been acted on yet.")
        boolean cancel;
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (when != null && when.cancel) {
            boolean removed = HaltRequest.removeFrom(dir);
            out.println(removed ? "halt request withdrawn from " + dir : "no halt request in " + dir);
            return 0;
        }
        HaltRequest request = when == null || when.afterNextCheckpoint ? HaltRequest.afterNextCheckpoint()
                : when.now ? HaltRequest.now() : HaltRequest.at(instant(when.at));
        request.writeTo(dir);
        out.println("halt requested in " + HaltRequest.file(dir) + ": the job running over " + dir + " stops "
                + request.describe());
        return 0;
    }

    private Instant instant(String text) {
        try {
            if (text.startsWith("+")) {
                return Instant.now().plus(Units.parseDuration(text.substring(1)));
            }
            return Instant.parse(text);
        } catch (DateTimeParseException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--at " + text
                    + ": give an ISO-8601 instant such as 2026-11-24T13:00:00Z, or a delay from now such as +10m");
        }
    }
}
