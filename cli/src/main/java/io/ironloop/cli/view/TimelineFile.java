package io.ironloop.cli.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.ConfigurationException;
import io.ironloop.launcher.TimelineEvent;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The timeline a launcher leaves in the job's checkpoint folder, {@value #NAME}: one JSON object per line per
 * {@link TimelineEvent}, so a finished run can be drawn ({@code ironloop timeline DIR --svg}) and shown
 * ({@code ironloop dashboard DIR}) afterwards. The format is specified in {@code docs/timeline.md}:
 * <pre>{"time":"2026-11-24T12:00:00.123456Z","source":"supervisor","attempt":0,"rank":1,"pid":4242,
 *  "type":"fault-injected","fields":{"fault":"kill","signal":"SIGKILL","iteration":3}}</pre>
 * {@code rank} and {@code pid} are left out for events without one. Each launch appends (a job relaunched by hand
 * in the same folder adds a second {@code job-started}); {@link #read} returns the events of the last job in the
 * file. Rank {@code iteration} events are thinned to at most one per rank every {@link #ITERATION_SPACING} (the
 * others are routine; {@code saved}, failures and recoveries are all kept).
 */
public final class TimelineFile {
    /** The file's name in the checkpoint folder. */
    public static final String NAME = "ironloop-timeline.jsonl";
    /** The least time between two written {@code iteration} events of one rank. */
    public static final Duration ITERATION_SPACING = Duration.ofSeconds(1);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TimelineFile() {
    }

    /** The timeline file of a checkpoint folder. */
    public static Path in(Path folder) {
        return folder.resolve(NAME);
    }

    /**
     * One event as one line of JSON, without the line terminator.
     *
     * @param e the event
     * @return the line
     */
    public static String line(TimelineEvent e) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("time", e.time().toString());
        n.put("source", e.source() == TimelineEvent.Source.RANK ? "rank" : "supervisor");
        n.put("attempt", e.attempt());
        if (e.rank() != TimelineEvent.NO_RANK) {
            n.put("rank", e.rank());
        }
        if (e.pid() != TimelineEvent.NO_PID) {
            n.put("pid", e.pid());
        }
        n.put("type", e.type());
        n.set("fields", MAPPER.valueToTree(e.fields()));
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("a timeline event failed to serialise: " + e, ex);
        }
    }

    /**
     * Parses one line.
     *
     * @param line a line of the file
     * @return the event
     * @throws IllegalArgumentException if the line is not an event of this format (saying what is wrong)
     */
    @SuppressWarnings("unchecked")
    public static TimelineEvent parse(String line) {
        JsonNode n;
        try {
            n = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
        if (n == null || !n.isObject() || !n.path("time").isTextual() || !n.path("type").isTextual()
                || !n.path("attempt").canConvertToInt()) {
            throw new IllegalArgumentException("not a timeline event: expected an object with \"time\", \"attempt\" and \"type\"");
        }
        Instant time;
        try {
            time = Instant.parse(n.get("time").asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"time\" is not an ISO-8601 instant: " + n.get("time").asText(), e);
        }
        TimelineEvent.Source source = "rank".equals(n.path("source").asText()) ? TimelineEvent.Source.RANK
                : TimelineEvent.Source.SUPERVISOR;
        Map<String, Object> fields = n.path("fields").isObject() ? MAPPER.convertValue(n.get("fields"), LinkedHashMap.class)
                : Map.of();
        return new TimelineEvent(time, source, n.get("attempt").asInt(), n.path("rank").asInt(TimelineEvent.NO_RANK),
                n.path("pid").asLong(TimelineEvent.NO_PID), n.get("type").asText(), fields);
    }

    /**
     * The events of the last job recorded in a folder's timeline file (from its last {@code job-started} on).
     *
     * @param folderOrFile a checkpoint folder, or the timeline file itself
     * @return the events in the order they were recorded
     * @throws ConfigurationException if there is no timeline file, or a line of it is not an event (naming the line)
     */
    public static List<TimelineEvent> read(Path folderOrFile) {
        Path file = Files.isDirectory(folderOrFile) ? in(folderOrFile) : folderOrFile;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException("no timeline in " + folderOrFile + ": " + file + " does not exist; the launcher ("
                    + "ironloop run --params FILE) writes it into the job's FT_FOLDER; give that folder");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the timeline " + file, e);
        }
        List<TimelineEvent> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            TimelineEvent e;
            try {
                e = parse(line);
            } catch (IllegalArgumentException ex) {
                if (i == lines.size() - 1) {
                    break; // a launcher killed while writing its last line: the lines before it stand
                }
                throw new ConfigurationException(file + " line " + (i + 1) + ": " + ex.getMessage(), ex);
            }
            if (TimelineEvent.JOB_STARTED.equals(e.type())) {
                events.clear();
            }
            events.add(e);
        }
        if (events.isEmpty()) {
            throw new ConfigurationException("the timeline " + file + " holds no events");
        }
        return List.copyOf(events);
    }

    /**
     * Appends a launcher's events to a folder's timeline file, each line flushed as it is written, so the file is
     * current while the job runs and complete up to the last event after a {@code kill -9} of the launcher.
     *
     * <p>Called on the supervisor thread; never throws from {@link #accept}: the first write error is reported on
     * {@code err} and the file is given up (the job itself goes on).
     */
    public static final class Writer implements Consumer<TimelineEvent>, Closeable {
        private final Path file;
        private final Consumer<String> err;
        private final Thinning thinning = new Thinning();
        private BufferedWriter out;

        /**
         * Opens (creating the folder and the file if needed) the timeline file of a folder for appending.
         *
         * @param folder the job's checkpoint folder
         * @param err where a write error is reported, one line
         * @throws UncheckedIOException if the file cannot be opened
         */
        public Writer(Path folder, Consumer<String> err) {
            this.file = in(folder);
            this.err = err;
            try {
                Files.createDirectories(folder);
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the timeline file " + file + ": " + e.getMessage(), e);
            }
        }

        /** The file written. */
        public Path file() {
            return file;
        }

        @Override
        public synchronized void accept(TimelineEvent e) {
            if (out == null || thinning.drops(e)) {
                return;
            }
            try {
                out.write(line(e));
                out.newLine();
                out.flush();
            } catch (IOException ex) {
                err.accept("the timeline file " + file + " is no longer written: " + ex.getMessage());
                close();
            }
        }

        @Override
        public synchronized void close() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ex) {
                    err.accept("closing the timeline file " + file + " failed: " + ex.getMessage());
                }
                out = null;
            }
        }
    }

    /**
     * The thinning rule of the file: a rank's {@code iteration} event is dropped when the last one kept of the same
     * rank and attempt is less than {@link #ITERATION_SPACING} older. Not thread-safe.
     */
    static final class Thinning {
        private final Map<String, Instant> lastKept = new HashMap<>();

        /** Whether {@code e} is dropped; records it as kept otherwise. */
        boolean drops(TimelineEvent e) {
            if (e.source() != TimelineEvent.Source.RANK || !"iteration".equals(e.type())) {
                return false;
            }
            String key = e.attempt() + "/" + e.rank();
            Instant last = lastKept.get(key);
            if (last != null && Duration.between(last, e.time()).compareTo(ITERATION_SPACING) < 0) {
                return true;
            }
            lastKept.put(key, e.time());
            return false;
        }
    }
}
