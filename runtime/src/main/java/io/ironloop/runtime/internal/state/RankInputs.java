package io.ironloop.runtime.internal.state;

import io.ironloop.config.Parameters;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.runtime.RuntimeKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** What a rank reads at start, the same way for DeLIA's API and for block loops: its parameters and its settings. */
public final class RankInputs {
    private RankInputs() {
    }

    /** Settings as sorted {@code key=value} lines: the same map gives the same bytes, hence the same fingerprint. */
    public static byte[] canonical(Map<String, ?> settings) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(settings).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The parameters: {@code file} if given, else the launcher's parameter file ({@code IRONLOOP_PARAMS}) if any,
     * under the {@code IRONLOOP_<KEY>} variables of this process's environment.
     */
    public static Parameters parameters(Path file) {
        Path f = file;
        if (f == null) {
            String fromLauncher = System.getenv(LaunchEnvironment.PARAMS);
            f = fromLauncher == null || fromLauncher.isBlank() ? null : Path.of(fromLauncher);
        }
        return Parameters.load(RuntimeKeys.TABLE, f, System.getenv(), Map.of());
    }
}
