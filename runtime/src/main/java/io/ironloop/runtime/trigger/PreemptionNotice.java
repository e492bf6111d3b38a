package io.ironloop.runtime.trigger;

import java.time.Instant;
import java.util.Objects;

/**
 * A cloud provider's announcement that this instance will be reclaimed.
 *
 * @param provider the cloud that announced it
 * @param deadline when the instance will be stopped or terminated: AWS's {@code time}, Azure's
 *     {@code NotBefore} (the time of detection when the event has already started), or for GCE, which gives
 *     no time, the detection time plus GCE's documented 30 s preemption notice
 * @param detail the provider's own words, for logs (for example {@code action=terminate} or an Azure event id)
 */
public record PreemptionNotice(CloudProvider provider, Instant deadline, String detail) {
    /** Checks that no component is null. */
    public PreemptionNotice {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(detail, "detail");
    }
}
