package io.ironloop.benchmarks.format;

/** What a benchmark entry holds (public because JMH's generated code sets it as a parameter). */
public enum Content {
    /** Pseudo-random doubles: incompressible, like the checkpoint bench's refilled arrays. */
    RANDOM,
    /** A smooth seismic velocity model in m/s to 0.1 m/s (DeLIA's FWI case study). */
    SMOOTH,
    /** Full-precision sin·cos doubles: smooth, but with noisy low mantissa bytes. */
    FULL_PRECISION
}
