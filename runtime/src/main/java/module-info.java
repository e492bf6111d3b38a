/** The user-facing fault-tolerance runtime: triggers (termination signals, preemption notices). */
module io.ironloop.runtime {
    requires transitive io.ironloop.core;
    requires io.ironloop.base;
    requires transitive io.ironloop.group;
    requires org.slf4j;
    requires java.net.http;
    requires jdk.unsupported;

    exports io.ironloop.runtime.trigger;
    exports io.ironloop.runtime.tasks;
}
