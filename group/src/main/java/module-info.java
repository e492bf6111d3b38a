/**
 * Ironloop's process group: ranks, membership, failure detection and collectives on JGroups, with
 * ULFM-like failure semantics (revoke, shrink, agree), plus an in-JVM transport for fast tests.
 */
module io.ironloop.group {
    requires transitive io.ironloop.base;
    requires org.jgroups;
    requires org.slf4j;

    exports io.ironloop.group;
    // JGroups instantiates the job-secret AUTH token and reads protocol properties reflectively.
    opens io.ironloop.group.internal.jgroups to org.jgroups;
}
