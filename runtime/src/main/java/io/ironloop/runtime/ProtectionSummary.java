package io.ironloop.runtime;

import io.ironloop.config.Parameters;
import io.ironloop.core.level.LevelKeys;
import io.ironloop.group.GroupKeys;
import io.ironloop.runtime.trigger.PreemptionNoticeSource;
import io.ironloop.runtime.trigger.TerminationSignal;
import io.ironloop.runtime.trigger.TriggerKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one line a rank logs at start saying what its parameters protect and what they leave unprotected, so
 * that a user reading the log learns, for example, that a cloud preemption notice is not watched or that
 * {@code TRIGGER_SIGNAL} is off, before a failure teaches it. Stateless.
 */
final class ProtectionSummary {
    private ProtectionSummary() {
    }

    /** {@code "protected: …; not protected: …"} for these parameters. */
    static String of(Parameters p) {
        List<String> on = new ArrayList<>();
        List<String> off = new ArrayList<>();
        on.add("global state at " + globalGates(p));
        if (p.get(TriggerKeys.TRIGGER_SIGNAL)) {
            Set<TerminationSignal> signals = TerminationSignal.parseList(p.get(TriggerKeys.TRIGGER_SIGNALS));
            on.add("local + global state on " + signals.stream().map(s -> "SIG" + s).sorted().collect(Collectors.joining("/"))
                    + " (saved within " + seconds(p.get(TriggerKeys.TRIGGER_SIGNAL_DEADLINE)) + ", then exit 128+signal)");
            if (!signals.contains(TerminationSignal.USR1)) {
                off.add("SIGUSR1 (Slurm --signal=USR1@T: add USR1 to TRIGGER_SIGNALS)");
            }
        } else {
            off.add("termination signals (TRIGGER_SIGNAL=false in " + p.source(TriggerKeys.TRIGGER_SIGNAL)
                    + ": SIGTERM ends a rank without saving)");
        }
        if (p.isSet(GroupKeys.TRIGGER_HEARTBEAT_MONITORING)) {
            on.add("local state on a detected rank failure (" + p.get(GroupKeys.TYPE) + " heartbeat, suspicion after "
                    + seconds(p.get(GroupKeys.TIME_MAX_WAIT)) + ", once startHeartbeatMonitoring() is called)");
        } else {
            off.add("saves on a rank failure (no TRIGGER_HEARTBEAT_MONITORING)");
        }
        PreemptionNoticeSource notices = p.get(TriggerKeys.PREEMPTION_NOTICE);
        if (notices != PreemptionNoticeSource.NONE) {
            on.add("local state on a preemption notice (" + notices + ")");
        } else {
            off.add("cloud preemption notices (PREEMPTION_NOTICE=NONE)");
        }
        p.find(LevelKeys.SHARED_FOLDER).ifPresent(f -> on.add("copies of every line in SHARED_FOLDER " + f));
        p.find(LevelKeys.S3_URI).ifPresent(u -> on.add("copies of every line in " + u));
        if (p.find(LevelKeys.SHARED_FOLDER).isEmpty() && p.find(LevelKeys.S3_URI).isEmpty()) {
            off.add("the loss of FT_FOLDER's disk if it is a node's own (no SHARED_FOLDER or S3_URI copy)");
        }
        if (p.find(RuntimeKeys.CHECKPOINTING_TIME_LOCAL).isEmpty()) {
            off.add("local state between triggers (CHECKPOINTING_TIME_LOCAL off)");
        }
        off.add("work since the last global save on SIGKILL, out-of-memory or node loss");
        return "protected: " + String.join(", ", on) + "; not protected: " + String.join(", ", off);
    }

    private static String globalGates(Parameters p) {
        List<String> gates = new ArrayList<>();
        p.find(RuntimeKeys.CHECKPOINTING_GLOBAL_ITERATION).filter(n -> n > 1)
                .ifPresent(n -> gates.add("once every " + n + " saveGlobal() calls"));
        p.find(RuntimeKeys.CHECKPOINTING_TIME_GLOBAL).ifPresent(t -> gates.add("at most every " + seconds(t)));
        return gates.isEmpty() ? "every saveGlobal() call" : String.join(" and ", gates);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
