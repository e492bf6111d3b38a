package io.ironloop.cli;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Store;
import io.ironloop.core.level.LevelKeys;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.core.level.RemoteLevels;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The store tools' {@code --level L [--params FILE]}: read the store of level {@code L} as a run's parameters
 * configure it ({@code local}: FT_FOLDER, or with DISK_PER_HOST its host stores read as one ({@link LocalLevel}); {@code shared}: SHARED_FOLDER; {@code s3}: S3_URI), instead of a
 * directory given as an argument. The parameters come from FILE and the {@code IRONLOOP_<KEY>} variables, as a
 * rank reads them.
 */
final class LevelOptions {
    static final String LOCAL = "local";

    @Option(names = "--level", paramLabel = "L", description = "Read level L as the parameters configure it: local (FT_FOLDER),"
            + " shared (SHARED_FOLDER) or s3 (S3_URI; credentials from the AWS SDK's default chain), instead of DIR.")
    String level;

    @Option(names = "--params", paramLabel = "FILE", description = "With --level: the run's parameter file (default: only"
            + " the IRONLOOP_<KEY> variables).")
    Path params;

    /** The run's parameters: {@code --params FILE} and the {@code IRONLOOP_<KEY>} variables, as a rank reads them. */
    Parameters parameters() {
        Map<String, String> env = System.getenv();
        return params != null ? RankParameters.load(params, env, Map.of()) : RankParameters.environment(env);
    }

    /** Whether {@code --level local} was given. */
    boolean local() {
        return LOCAL.equals(level);
    }

    /** Whether {@code --level} was given. */
    boolean given() {
        return level != null;
    }

    /**
     * Opens the level's store (read-only use).
     *
     * @throws CommandLine.ParameterException when the level is unknown or not configured
     */
    Store open(CommandSpec spec) {
        Parameters p = parameters();
        if (local()) {
            try {
                return LocalLevel.of(p).store(); // with DISK_PER_HOST, every host's store below FT_FOLDER, read as one
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("reading the local level under " + p.get(EngineKeys.FT_FOLDER) + ": " + e.getMessage(), e);
            }
        }
        List<RemoteLevel> levels = RemoteLevels.open(p);
        Store found = null;
        for (RemoteLevel l : levels) {
            if (l.name().equals(level)) {
                found = l.store();
            } else {
                l.close();
            }
        }
        if (found == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "level '" + level + "' is not configured: the levels are "
                    + LOCAL + " (" + EngineKeys.FT_FOLDER.name() + "), " + RemoteLevel.SHARED + " (" + LevelKeys.SHARED_FOLDER.name()
                    + ") and s3 (" + LevelKeys.S3_URI.name() + "); set the key in --params FILE or as IRONLOOP_<KEY>");
        }
        return found;
    }
}
