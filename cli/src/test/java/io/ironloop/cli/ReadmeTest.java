package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The README's configuration table is the one the code documents, its command-line table names every
 * command {@code bin/ironloop --help} lists with every option, and its test command is the one CI runs.
 */
class ReadmeTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void readme_configurationTable_matchesParameterTable() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme).as("regenerate with: bin/ironloop params --markdown").contains(AllParameters.TABLE.markdown());
    }

    @Test
    void readme_commandTable_listsEveryCommandWithEveryOption() throws Exception {
        List<String> rows = Files.readAllLines(ROOT.resolve("README.md")).stream()
                .filter(l -> l.startsWith("| `bin/ironloop "))
                .map(l -> l.replace("\\|", "|"))
                .toList();
        List<String> missing = new ArrayList<>();
        for (CommandLine leaf : leaves(new CommandLine(new Main()))) {
            String name = leaf.getCommandSpec().qualifiedName().substring("ironloop ".length());
            String row = rows.stream().filter(r -> r.startsWith("| `bin/ironloop " + name + " ") || r.startsWith("| `bin/ironloop " + name + "`"))
                    .findFirst().orElse(null);
            if (row == null) {
                missing.add("a row for 'bin/ironloop " + name + "'");
                continue;
            }
            for (OptionSpec o : leaf.getCommandSpec().options()) {
                if (!o.usageHelp() && !o.versionHelp() && Arrays.stream(o.names()).noneMatch(n -> mentions(row, n))) {
                    missing.add(o.longestName() + " in the row of '" + name + "'");
                }
            }
            for (PositionalParamSpec p : leaf.getCommandSpec().positionalParameters()) {
                if (!row.contains(p.paramLabel())) {
                    missing.add(p.paramLabel() + " in the row of '" + name + "'");
                }
            }
        }
        assertThat(missing).as("README.md's command-line table (rows starting with | `bin/ironloop COMMAND`)").isEmpty();
    }

    /** Whether {@code row} has option {@code name} as a token of its own ("-n" is not in "--json"). */
    private static boolean mentions(String row, String name) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])").matcher(row).find();
    }

    /** The commands that run something: every command without subcommands, depth first. */
    private static List<CommandLine> leaves(CommandLine cl) {
        List<CommandLine> out = new ArrayList<>();
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getSubcommands().isEmpty()) {
                out.add(sub);
            } else {
                out.addAll(leaves(sub));
            }
        }
        return out;
    }

    @Test
    void ciScript_runsReadmeTestCommand() throws Exception {
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains("mvn -B verify");
        assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains("mvn -B verify");
    }
}
