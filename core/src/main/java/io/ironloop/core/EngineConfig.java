package io.ironloop.core;

import io.ironloop.config.Parameters;
import io.ironloop.core.internal.LineCatalog;
import io.ironloop.format.Codec;
import java.util.Objects;

/**
 * Immutable configuration of a {@link CheckpointEngine}: who writes (job, rank, world size, series) and
 * how (chunking, compression, differential lines, retention, background depth). Made by {@link #builder()}
 * or from parameters with {@link #from(Parameters)}.
 */
public final class EngineConfig {
    private final String jobId;
    private final int rank;
    private final int worldSize;
    private final String series;
    private final int retainLines;
    private final int chunkSize;
    private final Codec compression;
    private final int compressionLevel;
    private final boolean differential;
    private final int fullEvery;
    private final int maxInFlight;
    private final boolean ignoreSettings;

    private EngineConfig(Builder b) {
        this.jobId = b.jobId;
        this.rank = b.rank;
        this.worldSize = b.worldSize;
        this.series = b.series != null ? b.series : LineCatalog.rankSeries(b.rank);
        this.retainLines = b.retainLines;
        this.chunkSize = b.chunkSize;
        this.compression = b.compression;
        this.compressionLevel = b.compressionLevel;
        this.differential = b.differential;
        this.fullEvery = b.fullEvery;
        this.maxInFlight = b.maxInFlight;
        this.ignoreSettings = b.ignoreSettings;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset from parameters (FT_FOLDER is the store's business, not the engine's). */
    public static Builder from(Parameters p) {
        return builder()
                .retainLines(Math.toIntExact(p.get(EngineKeys.RETAIN_LINES)))
                .chunkSize(Math.toIntExact(p.get(EngineKeys.CHUNK_SIZE)))
                .compression(p.get(EngineKeys.COMPRESSION), Math.toIntExact(p.get(EngineKeys.COMPRESSION_LEVEL)))
                .differential(p.get(EngineKeys.DIFFERENTIAL), Math.toIntExact(p.get(EngineKeys.FULL_EVERY)))
                .maxInFlight(Math.toIntExact(p.get(EngineKeys.MAX_IN_FLIGHT)))
                .ignoreSettings(p.get(EngineKeys.IGNORE_SETTINGS));
    }

    public String jobId() {
        return jobId;
    }

    public int rank() {
        return rank;
    }

    public int worldSize() {
        return worldSize;
    }

    /** The series this engine writes: its own name space in the store, one writer at a time. */
    public String series() {
        return series;
    }

    public int retainLines() {
        return retainLines;
    }

    public int chunkSize() {
        return chunkSize;
    }

    public Codec compression() {
        return compression;
    }

    public int compressionLevel() {
        return compressionLevel;
    }

    public boolean differential() {
        return differential;
    }

    public int fullEvery() {
        return fullEvery;
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    public boolean ignoreSettings() {
        return ignoreSettings;
    }

    @Override
    public String toString() {
        return "EngineConfig{job=" + jobId + ", rank=" + rank + "/" + worldSize + ", series=" + series + ", retain=" + retainLines
                + ", chunk=" + chunkSize + ", compression=" + compression + "/" + compressionLevel + ", differential=" + differential
                + "/full every " + fullEvery + ", inFlight=" + maxInFlight + ", ignoreSettings=" + ignoreSettings + "}";
    }

    /** Builds an {@link EngineConfig}. Setters reject bad values at once; {@link #build()} checks combinations. */
    public static final class Builder {
        private String jobId = "local";
        private int rank;
        private int worldSize = 1;
        private String series;
        private int retainLines = 2;
        private int chunkSize = 1 << 20;
        private Codec compression = Codec.NONE;
        private int compressionLevel = 3;
        private boolean differential;
        private int fullEvery = 8;
        private int maxInFlight = 1;
        private boolean ignoreSettings;

        private Builder() {
        }

        public Builder jobId(String jobId) {
            if (Objects.requireNonNull(jobId, "jobId").isBlank() || !jobId.matches("[A-Za-z0-9._-]{1,128}")) {
                throw new IllegalArgumentException("job ids are 1..128 letters, digits, '.', '_' or '-': '" + jobId + "'");
            }
            this.jobId = jobId;
            return this;
        }

        /** This process's rank and the number of processes. */
        public Builder rank(int rank, int worldSize) {
            if (worldSize < 1 || rank < 0 || rank >= worldSize) {
                throw new IllegalArgumentException("rank must be in 0.." + (worldSize - 1) + " and world size >= 1: rank " + rank
                        + " of " + worldSize);
            }
            this.rank = rank;
            this.worldSize = worldSize;
            return this;
        }

        /** The series name (default {@code rank-NNNNN}). */
        public Builder series(String series) {
            if (!Objects.requireNonNull(series, "series").matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")) {
                throw new IllegalArgumentException("series names are 1..128 letters, digits, '.', '_' or '-' not starting with '.': '"
                        + series + "'");
            }
            this.series = series;
            return this;
        }

        public Builder retainLines(int k) {
            if (k < 1) {
                throw new IllegalArgumentException("retain at least one line, not " + k);
            }
            this.retainLines = k;
            return this;
        }

        public Builder chunkSize(int bytes) {
            if (Integer.bitCount(bytes) != 1 || bytes < 4096 || bytes > (64 << 20)) {
                throw new IllegalArgumentException("chunk size must be a power of two from 4KiB to 64MiB: " + bytes);
            }
            this.chunkSize = bytes;
            return this;
        }

        public Builder compression(Codec codec, int level) {
            if (level < 1 || level > 19) {
                throw new IllegalArgumentException("compression level must be 1..19: " + level);
            }
            this.compression = Objects.requireNonNull(codec, "codec");
            this.compressionLevel = level;
            return this;
        }

        /** Differential lines, with a full line every {@code fullEvery} lines. */
        public Builder differential(boolean on, int fullEvery) {
            if (fullEvery < 1) {
                throw new IllegalArgumentException("a full line every N lines needs N >= 1, not " + fullEvery);
            }
            this.differential = on;
            this.fullEvery = fullEvery;
            return this;
        }

        public Builder maxInFlight(int n) {
            if (n < 1 || n > 4) {
                throw new IllegalArgumentException("checkpoints in flight must be 1..4: " + n);
            }
            this.maxInFlight = n;
            return this;
        }

        public Builder ignoreSettings(boolean ignore) {
            this.ignoreSettings = ignore;
            return this;
        }

        public EngineConfig build() {
            return new EngineConfig(this);
        }
    }
}
