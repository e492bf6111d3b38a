package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything {@code ironloop run} attaches to the launcher's timeline (its one event listener): the
 * {@link TimelineFile} in the job's checkpoint folder, and on request the live {@link DashboardServer dashboard} and
 * the launcher's {@link LauncherMetrics Prometheus endpoint}.
 * Each part is told every event on the supervisor thread; a part that throws is reported once on standard error
 * and left out from then on, so observing never stops a job.
 */
public final class RunObservers implements Consumer<TimelineEvent>, AutoCloseable {
    private final List<Consumer<TimelineEvent>> parts = new ArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final PrintStream err;

    private RunObservers(PrintStream err) {
        this.err = err;
    }

    /**
     * Starts the observers of a run.
     *
     * @param folder the job's checkpoint folder (FT_FOLDER as the ranks resolve it), for the timeline file
     * @param dashboardPort the dashboard's port (0: the kernel chooses), or null for none
     * @param metricsPort the launcher's Prometheus endpoint's port (0: the kernel chooses), or null for none
     * @param err where the addresses and any observer's failure are reported
     * @return the observers, to pass as the launch's event listener and to close after the run
     * @throws io.ironloop.ConfigurationException if the dashboard's or the metrics' port cannot be used
     */
    public static RunObservers start(Path folder, Integer dashboardPort, Integer metricsPort, PrintStream err) {
        RunObservers o = new RunObservers(err);
        try {
            TimelineFile.Writer file = new TimelineFile.Writer(folder, line -> err.println("ironloop: " + line));
            o.add(file, file);
        } catch (java.io.UncheckedIOException e) {
            err.println("ironloop: " + e.getMessage() + "; the run goes on without it");
        }
        if (dashboardPort != null) {
            RunState state = new RunState();
            DashboardServer server;
            try {
                server = DashboardServer.start(() -> state, dashboardPort);
            } catch (RuntimeException e) {
                o.close();
                throw e;
            }
            o.add(state, server);
            err.println("ironloop: dashboard at " + server.uri());
            err.flush();
        }
        if (metricsPort != null) {
            LauncherMetrics metrics;
            try {
                metrics = LauncherMetrics.serve(metricsPort);
            } catch (RuntimeException e) {
                o.close();
                throw e;
            }
            o.add(metrics, metrics);
            err.println("ironloop: launcher metrics at " + metrics.url() + " (every interface)");
            err.flush();
        }
        return o;
    }

    private void add(Consumer<TimelineEvent> part, AutoCloseable close) {
        parts.add(part);
        closing.add(close);
    }

    @Override
    public void accept(TimelineEvent e) {
        for (int i = 0; i < parts.size(); i++) {
            Consumer<TimelineEvent> part = parts.get(i);
            if (part == null) {
                continue;
            }
            try {
                part.accept(e);
            } catch (RuntimeException ex) {
                err.println("ironloop: " + part.getClass().getSimpleName() + " stopped observing the run: " + ex);
                parts.set(i, null);
            }
        }
    }

    /** Stops the dashboard and closes the timeline file. */
    @Override
    public void close() {
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception e) {
                err.println("ironloop: closing " + c.getClass().getSimpleName() + " failed: " + e);
            }
        }
        closing.clear();
    }
}
