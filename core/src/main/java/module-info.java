/** The checkpoint engine: protected state, stores, two-phase writes, policies, retention and restore. */
module io.ironloop.core {
    requires transitive io.ironloop.format;
    requires org.slf4j;
    // com.sun.nio.file.ExtendedOpenOption.DIRECT: the termination save's direct I/O
    requires jdk.unsupported;

    exports io.ironloop.core;
    exports io.ironloop.core.level;
    exports io.ironloop.core.plan;

    uses io.ironloop.core.level.RemoteLevels.Provider;
}
