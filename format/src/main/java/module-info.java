/** The checkpoint container format (see docs/format.md). */
module io.ironloop.format {
    requires transitive io.ironloop.base;
    requires com.github.luben.zstd_jni;
    requires org.lz4.java;
    requires com.fasterxml.jackson.core;
    requires org.slf4j;

    exports io.ironloop.format;
    // the one grammar of store names (StoreNames), for the engine's stores and commit records
    exports io.ironloop.format.internal to io.ironloop.core;
}
