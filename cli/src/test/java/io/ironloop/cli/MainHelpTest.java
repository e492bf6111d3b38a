package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code ironloop --help}: the command list shows one whole sentence per command; {@code --version}. */
class MainHelpTest {
    @Test
    void everyCommandSummary_isOneWholeSentence() {
        Map<String, CommandLine> commands = new CommandLine(new Main()).getSubcommands();
        assertThat(commands).isNotEmpty();
        commands.forEach((name, command) -> {
            String summary = command.getCommandSpec().usageMessage().description()[0];
            assertThat(summary).as("summary of %s", name).endsWith(".").doesNotContain("%n");
            assertThat(summary.chars().filter(c -> c == '(').count()).as("balanced parentheses in %s", summary)
                    .isEqualTo(summary.chars().filter(c -> c == ')').count());
        });
    }

    @Test
    void help_listsTheDemoSummaryWhole() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "--help")).isZero();
        String help = (out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).replaceAll("\\s+", " ");
        assertThat(help).contains("demo Run an example under the launcher with real faults and check its result bit for bit.");
    }

    @Test
    void version_printsTheBuildsProjectVersion() throws Exception {
        // the version Maven builds: the root pom's own <version>, right after its artifactId
        String pom = Files.readString(Path.of("..", "pom.xml"));
        Matcher m = Pattern.compile("<artifactId>ironloop-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).as("the root pom declares ironloop-parent's version").isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), "--version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).strip()).isEqualTo("ironloop " + m.group(1));
    }
}
