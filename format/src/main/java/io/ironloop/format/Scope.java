package io.ironloop.format;

/** Who an entry belongs to. */
public enum Scope {
    /** The same on every process of the job; saved once per line. */
    GLOBAL,
    /** One process's own state; saved by every process. */
    LOCAL,
    /** The application's configuration; fingerprinted so a restart under other settings is noticed. */
    SETTINGS
}
