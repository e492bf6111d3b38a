package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table is the one the code documents, and its test command is the one CI runs. */
class ReadmeTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void readme_configurationTable_matchesParameterTable() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme).as("regenerate with: bin/ironloop params --markdown").contains(AllParameters.TABLE.markdown());
    }

    @Test
    void ciScript_runsReadmeTestCommand() throws Exception {
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains("mvn -B verify");
        assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains("mvn -B verify");
    }
}
