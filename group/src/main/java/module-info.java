/**
 * Ironloop's process group: ranks, membership, failure detection and collectives on JGroups, with
 * ULFM-like failure semantics (revoke, shrink, agree), an in-JVM transport for fast tests, and the rank
 * environment the launcher sets ({@link io.ironloop.group.launch}).
 */
module io.ironloop.group {
    requires transitive io.ironloop.base;
    requires org.jgroups;
    requires org.slf4j;

    exports io.ironloop.group;
    exports io.ironloop.group.launch;
    // JGroups instantiates the job-secret AUTH token and reads protocol properties reflectively.
    opens io.ironloop.group.internal.jgroups to org.jgroups;
}
