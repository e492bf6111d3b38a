/**
 * The user-facing fault-tolerance runtime: DeLIA's API ({@link io.ironloop.runtime.Ironloop}), task pools
 * with static and work-stealing schedulers, and triggers (termination signals, preemption notices,
 * heartbeat failures).
 */
module io.ironloop.runtime {
    requires transitive io.ironloop.core;
    requires transitive io.ironloop.group;
    requires io.ironloop.base;
    requires org.slf4j;
    requires java.net.http;
    requires jdk.unsupported;
    requires jdk.management;
    requires jdk.httpserver;
    requires jdk.jfr;
    requires micrometer.core;
    requires micrometer.registry.prometheus;

    exports io.ironloop.runtime;
    exports io.ironloop.runtime.tasks;
    exports io.ironloop.runtime.trigger;
    exports io.ironloop.runtime.event;
    exports io.ironloop.runtime.blocks;
    exports io.ironloop.runtime.skeleton;

    uses io.ironloop.runtime.event.EventSubscriberProvider;
    uses io.ironloop.runtime.event.CommittedLineObserver.Provider;
}
