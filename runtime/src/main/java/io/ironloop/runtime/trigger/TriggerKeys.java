package io.ironloop.runtime.trigger;

import io.ironloop.config.ParameterKey;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

/**
 * The configuration keys of the triggers: DeLIA's {@code TRIGGER_SIGNAL} and Ironloop's own keys beside it.
 * {@link #ALL} joins the runtime's parameter table.
 */
public final class TriggerKeys {

    /** AWS IMDSv2 spot instance-action; the session token is fetched from {@code /latest/api/token} on the same host. */
    public static final String DEFAULT_AWS_URL = "http://169.254.169.254/latest/meta-data/spot/instance-action";
    /** GCE's {@code preempted} flag (requires the header {@code Metadata-Flavor: Google}). */
    public static final String DEFAULT_GCE_URL = "http://metadata.google.internal/computeMetadata/v1/instance/preempted";
    /** Azure scheduled events (requires the header {@code Metadata: true}). */
    public static final String DEFAULT_AZURE_URL = "http://169.254.169.254/metadata/scheduledevents?api-version=2020-07-01";

    /**
     * DeLIA's key: termination signals make the rank save its local state, then exit with 128 + signal number.
     * On by default (DeLIA's default is off): a scheduler's SIGTERM then saves instead of losing the work;
     * {@code "TRIGGER_SIGNAL": false} turns it off.
     */
    public static final ParameterKey<Boolean> TRIGGER_SIGNAL = ParameterKey.bool("TRIGGER_SIGNAL", true,
            "termination signals (see TRIGGER_SIGNALS) make each rank save its local state durably, then the global state "
                    + "at a consistent point, then exit with status 128 + signal number (143 for SIGTERM); false: a signal "
                    + "ends the rank without saving");

    /** Which signals trigger a save when {@link #TRIGGER_SIGNAL} is on. */
    public static final ParameterKey<String> TRIGGER_SIGNALS = ParameterKey.string("TRIGGER_SIGNALS", "TERM,INT",
                    "comma-separated signals that trigger the save when TRIGGER_SIGNAL is true: TERM, INT, USR1, USR2 "
                            + "(add USR1 for Slurm's --signal=USR1@120; the JVM aborts on a USR2 it does not handle)")
            .requiring(TriggerKeys::isSignalList, "is not a list of TERM, INT, USR1, USR2 without repeats");

    /** How long a signal-triggered save may take before the process exits anyway. */
    public static final ParameterKey<Duration> TRIGGER_SIGNAL_DEADLINE = ParameterKey.duration("TRIGGER_SIGNAL_DEADLINE",
            Duration.ofSeconds(25), Duration.ofMillis(100),
            "after a termination signal the process exits once the save is done or this long after the signal, whichever "
                    + "is first; keep it below the scheduler's kill delay (Slurm KillWait, Kubernetes "
                    + "terminationGracePeriodSeconds: both 30 s by default)");

    /** Which cloud metadata endpoint to poll for preemption notices. */
    public static final ParameterKey<PreemptionNoticeSource> PREEMPTION_NOTICE = ParameterKey.choice("PREEMPTION_NOTICE",
            PreemptionNoticeSource.class, PreemptionNoticeSource.NONE,
            "poll a cloud metadata endpoint for preemption notices and save local state when one appears: NONE, AWS "
                    + "(spot instance-action, IMDSv2), GCE (instance/preempted), AZURE (scheduled events Preempt/Terminate), "
                    + "or AUTO (use whichever answers)");

    /** The AWS spot instance-action URL. */
    public static final ParameterKey<String> PREEMPTION_AWS_URL = url("PREEMPTION_AWS_URL", DEFAULT_AWS_URL,
            "AWS spot instance-action URL (404 until a notice, then JSON action and time); the IMDSv2 token is PUT to "
                    + "/latest/api/token on the same host");

    /** The GCE preempted URL. */
    public static final ParameterKey<String> PREEMPTION_GCE_URL = url("PREEMPTION_GCE_URL", DEFAULT_GCE_URL,
            "GCE preempted URL (FALSE until preemption, then TRUE; the deadline is 30 s after detection)");

    /** The Azure scheduled events URL. */
    public static final ParameterKey<String> PREEMPTION_AZURE_URL = url("PREEMPTION_AZURE_URL", DEFAULT_AZURE_URL,
            "Azure scheduled events URL (JSON Events; Preempt or Terminate events announce reclamation at NotBefore)");

    /** How often the metadata endpoint is polled. */
    public static final ParameterKey<Duration> PREEMPTION_POLL_INTERVAL = ParameterKey.duration("PREEMPTION_POLL_INTERVAL",
            Duration.ofSeconds(1), Duration.ofMillis(10),
            "time between two polls of the metadata endpoint (AWS suggests 5 s, Azure 1 s; notices come 30 s to 2 min ahead)");

    /** The part of a notice's lead time reserved for the platform's shutdown. */
    public static final ParameterKey<Duration> PREEMPTION_MARGIN = ParameterKey.duration("PREEMPTION_MARGIN",
            Duration.ofSeconds(5), Duration.ZERO,
            "the save triggered by a preemption notice is asked to finish this long before the provider's deadline");

    /** Every key of this class, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(TRIGGER_SIGNAL, TRIGGER_SIGNALS, TRIGGER_SIGNAL_DEADLINE,
            PREEMPTION_NOTICE, PREEMPTION_AWS_URL, PREEMPTION_GCE_URL, PREEMPTION_AZURE_URL, PREEMPTION_POLL_INTERVAL,
            PREEMPTION_MARGIN);

    private TriggerKeys() {
    }

    private static ParameterKey<String> url(String name, String defaultValue, String meaning) {
        return ParameterKey.string(name, defaultValue, meaning)
                .requiring(TriggerKeys::isHttpUrl, "is not an absolute http:// or https:// URL with a host");
    }

    static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text.trim());
            return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean isSignalList(String text) {
        try {
            TerminationSignal.parseList(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
