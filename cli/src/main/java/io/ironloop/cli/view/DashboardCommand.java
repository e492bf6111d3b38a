package io.ironloop.cli.view;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ironloop dashboard DIR}: the dashboard of a run from the timeline it left in its checkpoint folder. */
@Command(name = "dashboard", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Serve the dashboard of a run from the timeline in its checkpoint folder.",
            "",
            "Serves the last job recorded in FT_FOLDER/" + TimelineFile.NAME + " on loopback:"
                + " ranks and their state, iteration progress, checkpoints level by level, failures with their detection"
                + " and recovery, the time they cost, and the timeline. The file is read again whenever it changes, so a"
                + " job still running (started by 'ironloop run' elsewhere, on a shared file system) is followed live."
                + " The address goes to standard error; stop with Ctrl-C.",
            ""},
        footer = {"", "Example:", "  ironloop dashboard ./ironloop-data --port 8090   # then open http://127.0.0.1:8090/"})
public final class DashboardCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The job's checkpoint folder (FT_FOLDER), or the timeline file itself.")
    Path dir;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "Port on 127.0.0.1; 0 (the default) for one the kernel chooses.")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        Supplier<RunState> state = new Reloading(dir);
        state.get(); // a missing or broken file is an error now, not at the first request
        try (DashboardServer server = DashboardServer.start(state, port)) {
            spec.commandLine().getErr().println("ironloop: dashboard of " + dir + " at " + server.uri() + " (Ctrl-C to stop)");
            spec.commandLine().getErr().flush();
            new CountDownLatch(1).await(); // serves until the process is stopped
        }
        return 0;
    }

    /** The state of the file as it is now: read again when its size or modification time changed. */
    static final class Reloading implements Supplier<RunState> {
        private final Path dir;
        private long size = -1;
        private FileTime modified;
        private RunState state;

        Reloading(Path dir) {
            this.dir = dir;
        }

        @Override
        public synchronized RunState get() {
            Path file = Files.isDirectory(dir) ? TimelineFile.in(dir) : dir;
            long nowSize;
            FileTime nowModified;
            try {
                nowSize = Files.size(file);
                nowModified = Files.getLastModifiedTime(file);
            } catch (java.io.IOException e) {
                nowSize = -2;
                nowModified = null;
            }
            if (state == null || nowSize != size || !java.util.Objects.equals(nowModified, modified)) {
                state = RunState.of(TimelineFile.read(dir));
                size = nowSize;
                modified = nowModified;
            }
            return state;
        }
    }
}
