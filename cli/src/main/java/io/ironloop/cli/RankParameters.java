package io.ironloop.cli;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.runtime.RuntimeKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The one check of a parameter file before any rank starts, used by {@code run} and {@code demo}: the file
 * is read with the table and the environment the ranks will use ({@code Ironloop}'s {@link RuntimeKeys#TABLE}),
 * so an unknown key or a bad value is one usage error in the launcher (naming the key, with a "did you mean")
 * instead of a stack trace from every rank and a restart of a job that can never start.
 */
final class RankParameters {
    private RankParameters() {
    }

    /**
     * Loads {@code file} as the ranks will.
     *
     * @param file the parameter file (absolute or relative to the working directory)
     * @param environment the environment the ranks inherit ({@code IRONLOOP_<KEY>} variables are checked too)
     * @param overrides values the launcher itself sets, by key name
     * @return the parameters the ranks will see
     * @throws ConfigurationException for a missing or unreadable file, malformed JSON, an unknown key or a bad value
     */
    static Parameters load(Path file, Map<String, String> environment, Map<String, String> overrides) {
        if (!Files.isReadable(file)) {
            throw new ConfigurationException("parameter file " + file.toAbsolutePath() + " does not exist or is not readable");
        }
        return Parameters.load(RuntimeKeys.TABLE, file, environment, overrides);
    }

    /**
     * The parameters the ranks see without a parameter file: the defaults and their {@code IRONLOOP_<KEY>}
     * variables.
     *
     * @param environment the environment the ranks inherit
     * @return the parameters
     * @throws ConfigurationException for a bad value in an {@code IRONLOOP_<KEY>} variable
     */
    static Parameters environment(Map<String, String> environment) {
        return Parameters.load(RuntimeKeys.TABLE, null, environment, Map.of());
    }
}
