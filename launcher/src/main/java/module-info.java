/**
 * Ironloop's launcher (layer 7): both ends of the control protocol, the supervisor, fault injection, spares and
 * the timeline ({@link io.ironloop.launcher}), and the rank side that reports the runtime's events to it
 * ({@link io.ironloop.launcher.rank}).
 */
module io.ironloop.launcher {
    requires transitive io.ironloop.runtime;
    requires transitive io.ironloop.sites;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;
    requires jdk.unsupported;

    exports io.ironloop.launcher;
    exports io.ironloop.launcher.rank;

    provides io.ironloop.runtime.event.EventSubscriberProvider with io.ironloop.launcher.rank.LauncherSubscriberProvider;
}
