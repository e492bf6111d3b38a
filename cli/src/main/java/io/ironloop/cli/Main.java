package io.ironloop.cli;

import io.ironloop.IronloopException;
import io.ironloop.IronloopVersion;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ironloop} command. Results go to standard output; logs, progress and errors to standard
 * error. Exit status: 0 success, 1 failure, 2 usage error.
 */
@Command(name = "ironloop", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Fault tolerance for long iterative parallel applications on the JVM.",
        subcommands = {
            ParamsCommand.class,
            DemoCommand.class,
            BenchCommand.class,
            LsCommand.class,
            VerifyCommand.class,
            InspectCommand.class,
            ExportCommand.class,
            RunCommand.class,
            HaltCommand.class,
            PlanCommand.class,
            io.ironloop.cli.view.TimelineCommand.class,
            io.ironloop.cli.view.DashboardCommand.class,
        })
public final class Main implements Runnable {
    /** Exit status of a command that ran and succeeded. */
    public static final int OK = 0;
    /** Exit status of a command that ran and failed (damage found, I/O error). */
    public static final int FAILURE = 1;
    /** Exit status of a command line that could not run: bad arguments, a missing path. */
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line on the process's standard streams and returns the exit status. */
    public static int execute(String... args) {
        return execute(System.out, System.err, args);
    }

    /**
     * Runs the command line with results written to {@code out} and messages to {@code err}, and returns the
     * exit status (for tests and for wrappers). Both streams are flushed before returning, never closed.
     */
    public static int execute(PrintStream out, PrintStream err, String... args) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(outWriter);
        cl.setErr(errWriter);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        DemoCommand.appHelp(cl.getSubcommands().get("demo"));
        cl.setParameterExceptionHandler((e, arguments) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println("ironloop: " + e.getMessage());
            failed.getErr().println("Run '" + failed.getCommandSpec().qualifiedName() + " --help' for usage.");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IronloopException || e instanceof IOException || e instanceof UncheckedIOException) {
                commandLine.getErr().println("ironloop: " + e.getMessage());
                return FAILURE;
            }
            throw e;
        });
        try {
            return cl.execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    /** The version the build recorded ({@link IronloopVersion}), whether run from classes or from a jar. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ironloop " + IronloopVersion.current()};
        }
    }
}
