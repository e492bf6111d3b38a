package io.ironloop.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.format.internal.StoreNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The store names {@code docs/format.md} shows are names the engine writes: every {@code file},
 * {@code dataFile}, {@code references} and {@code series} value in its examples is valid in the one grammar
 * ({@link StoreNames}) and is exactly what {@link LineCatalog} produces for its series and line, and the
 * placeholders in its tables have the widths the engine uses.
 */
class FormatDocNamesTest {
    private static final Path DOC = Path.of("..", "docs", "format.md").toAbsolutePath().normalize();
    private static final Pattern FILE_FIELD = Pattern.compile("\"(?:file|dataFile)\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern REFERENCES = Pattern.compile("\"references\"\\s*:\\s*\\[([^\\]]*)]");
    private static final Pattern SERIES_FIELD = Pattern.compile("\"series\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    @Test
    void formatDoc_everyExampleName_isOneTheEngineWrites() throws Exception {
        String doc = Files.readString(DOC);
        List<String> names = new ArrayList<>();
        Matcher m = FILE_FIELD.matcher(doc);
        while (m.find()) {
            names.add(m.group(1));
        }
        Matcher refs = REFERENCES.matcher(doc);
        while (refs.find()) {
            Matcher q = QUOTED.matcher(refs.group(1));
            while (q.find()) {
                names.add(q.group(1));
            }
        }
        assertThat(names).as("store names in the examples of " + DOC).hasSizeGreaterThanOrEqualTo(4);
        List<String> wrong = new ArrayList<>();
        for (String name : names) {
            String problem = StoreNames.problem(name);
            if (problem != null) {
                wrong.add(name + ": " + problem);
                continue;
            }
            String series = name.contains("/") ? StoreNames.series(name) : "";
            Matcher line = LineCatalog.Patterns.LINE_FILE.matcher(name.substring(name.indexOf('/') + 1));
            if (!line.matches() || line.group(3) != null) {
                wrong.add(name + ": not SERIES/line-NNNNNNNNNNNN.ilc or .commit");
                continue;
            }
            long sequence = Long.parseLong(line.group(1));
            String expected = line.group(2).equals(LineCatalog.DATA_SUFFIX) ? LineCatalog.dataFile(series, sequence)
                    : LineCatalog.commitFile(series, sequence);
            if (!name.equals(expected)) {
                wrong.add(name + ": the engine names that line " + expected);
            }
            if (LineCatalog.rankOf(series) < 0 && !series.equals("global")) {
                wrong.add(name + ": series '" + series + "' is neither rank-NNNNN nor global");
            }
        }
        Matcher series = SERIES_FIELD.matcher(doc);
        while (series.find()) {
            if (LineCatalog.rankOf(series.group(1)) < 0 && !series.group(1).equals("global")) {
                wrong.add("series " + series.group(1) + ": not a series the engine writes");
            }
        }
        assertThat(wrong).as("names in docs/format.md the engine never writes").isEmpty();
    }

    @Test
    void formatDoc_placeholders_haveTheEnginesWidths() throws Exception {
        String doc = Files.readString(DOC);
        String line = "line-" + "N".repeat(LineCatalog.lineName(0).length() - "line-".length());
        assertThat(doc).contains("`" + line + LineCatalog.DATA_SUFFIX + "`", "`" + line + LineCatalog.COMMIT_SUFFIX + "`");
        assertThat(doc).doesNotContainPattern("line-N{1,11}[^N]").doesNotContainPattern("line-N{13,}");
        String rank = "rank-" + "N".repeat(LineCatalog.rankSeries(0).length() - "rank-".length());
        assertThat(doc).contains("`" + rank + "`");
    }
}
