/**
 * The process group. This module currently exports the rank side of the local launcher
 * ({@link io.ironloop.group.launch}): the launch environment, the job secret, the bootstrap that ties a
 * rank's life to its launcher, and the link that reports progress events to the supervisor.
 */
module io.ironloop.group {
    requires transitive io.ironloop.base;

    exports io.ironloop.group.launch;
}
