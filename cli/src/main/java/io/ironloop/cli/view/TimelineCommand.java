package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ironloop timeline DIR [--svg FILE]}: a finished (or running) run's timeline, as text or as a picture. */
@Command(name = "timeline", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Print or draw (--svg) the timeline a launcher left in a job's checkpoint folder.",
            "",
            "Reads FT_FOLDER/" + TimelineFile.NAME + " (format: docs/timeline.md), the last job recorded there: one event"
                + " per line on standard output, or with --svg a picture of it: ranks × time with iterations, checkpoints,"
                + " failures, detection and recovery, one self-contained SVG.",
            ""},
        footer = {"", "Example:", "  ironloop timeline ./ironloop-data --svg run.svg"})
public final class TimelineCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The job's checkpoint folder (FT_FOLDER), or the timeline file itself.")
    Path dir;

    @Option(names = "--svg", paramLabel = "FILE", description = "Write the picture to FILE (replaced atomically) instead of"
            + " printing the events; '-' writes it to standard output.")
    Path svg;

    @Override
    public Integer call() throws IOException {
        List<TimelineEvent> events = TimelineFile.read(dir);
        PrintWriter out = spec.commandLine().getOut();
        if (svg == null) {
            for (TimelineEvent e : events) {
                out.println(e.format(events.get(0).time()));
            }
        } else if (svg.toString().equals("-")) {
            out.print(TimelineSvg.render(events, null));
        } else {
            Path target = svg.toAbsolutePath();
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            Files.writeString(tmp, TimelineSvg.render(events, null), StandardCharsets.UTF_8);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            spec.commandLine().getErr().println("ironloop: wrote " + target + " (" + events.size() + " events)");
        }
        out.flush();
        return 0;
    }
}
