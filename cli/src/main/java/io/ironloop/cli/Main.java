package io.ironloop.cli;

import io.ironloop.IronloopException;
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
        })
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit status (for tests and for wrappers). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IronloopException) {
                commandLine.getErr().println("ironloop: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /** Reads the version from the jar manifest, or "development" when running from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"ironloop " + (v == null ? "0.1.0-SNAPSHOT" : v)};
        }
    }
}
