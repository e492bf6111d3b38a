package io.ironloop.runtime.trigger;

/** Which cloud metadata endpoint to poll for preemption notices (the value of {@link TriggerKeys#PREEMPTION_NOTICE}). */
public enum PreemptionNoticeSource {
    /** Do not poll. */
    NONE,
    /** AWS EC2 spot instance-action, read with an IMDSv2 session token. */
    AWS,
    /** Google Compute Engine {@code instance/preempted}. */
    GCE,
    /** Azure scheduled events ({@code Preempt} and {@code Terminate}). */
    AZURE,
    /**
     * Probe all three and keep polling the one that answers in its provider's format; stop quietly when none
     * answers within the first few polls (not on a cloud, or the endpoint is blocked).
     */
    AUTO
}
