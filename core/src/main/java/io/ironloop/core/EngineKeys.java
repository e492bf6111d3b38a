package io.ironloop.core;

import io.ironloop.config.ParameterKey;
import io.ironloop.format.Codec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The checkpoint engine's parameter keys (see the README's configuration table). */
public final class EngineKeys {
    public static final ParameterKey<Path> FT_FOLDER = ParameterKey.path("FT_FOLDER", "./ironloop-data",
            "checkpoint folder; created if missing; relative paths resolve against the launcher's working directory");
    public static final ParameterKey<Long> RETAIN_LINES = ParameterKey.integer("RETAIN_LINES", 2L, 1,
            "complete lines kept per series and settings fingerprint (plus what differential lines reference)");
    public static final ParameterKey<Long> CHUNK_SIZE = ParameterKey.size("CHUNK_SIZE", 1L << 20, 4096, 64L << 20,
            "raw bytes per checksummed chunk; the unit of zero elision, compression and differential saving (a power of two)")
            .requiring(v -> Long.bitCount(v) == 1, "is not a power of two");
    public static final ParameterKey<Codec> COMPRESSION = ParameterKey.choice("COMPRESSION", Codec.class, Codec.NONE,
            "chunk compression (floating-point arrays are byte-shuffled first; chunks where it does not pay are stored raw)");
    public static final ParameterKey<Long> COMPRESSION_LEVEL = ParameterKey.integer("COMPRESSION_LEVEL", 3L, 1,
            "zstd level (1 fastest .. 19 smallest); ignored by lz4")
            .requiring(v -> v <= 19, "is above zstd's maximum level 19");
    public static final ParameterKey<Boolean> DIFFERENTIAL = ParameterKey.bool("DIFFERENTIAL", false,
            "reference chunks unchanged since the same series' previous line (SHA-256 compared) instead of rewriting them");
    public static final ParameterKey<Long> FULL_EVERY = ParameterKey.integer("FULL_EVERY", 8L, 1,
            "with DIFFERENTIAL, every N-th line is written in full so restores never depend on long chains");
    public static final ParameterKey<Long> MAX_IN_FLIGHT = ParameterKey.integer("MAX_IN_FLIGHT", 1L, 1,
            "checkpoints being persisted in the background at once; each needs one staging copy of the protected state")
            .requiring(v -> v <= 4, "is above 4 (each one costs a full staging copy of the protected state)");
    public static final ParameterKey<Boolean> IGNORE_SETTINGS = ParameterKey.bool("IGNORE_SETTINGS", false,
            "restore even when the checkpoint was made under other settings (fingerprint mismatch)");
    public static final ParameterKey<Duration> MTBF = ParameterKey.duration("MTBF", Duration.ofHours(24), Duration.ofSeconds(1),
            "mean time between failures of the job (any rank lost): the adaptive (Young/Daly) interval of a block loop's in-memory "
                    + "snapshots (SNAPSHOT_EVERY adaptive); refined by the failures the job sees");

    /** Every key, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(FT_FOLDER, RETAIN_LINES, CHUNK_SIZE, COMPRESSION,
            COMPRESSION_LEVEL, DIFFERENTIAL, FULL_EVERY, MAX_IN_FLIGHT, IGNORE_SETTINGS, MTBF);

    private EngineKeys() {
    }
}
