package io.ironloop.runtime.trigger;

import io.ironloop.ConfigurationException;
import io.ironloop.config.ParameterKey;
import io.ironloop.config.Parameters;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The triggers' settings, immutable. Read them from parameters with {@link #from(Parameters)} or build them
 * with {@link #builder()}; the defaults are those of {@link TriggerKeys}.
 *
 * @param signals the signals that trigger a save; empty when signal triggers are off
 * @param signalDeadline how long after a signal the process waits for the save before it exits anyway
 * @param preemption which metadata endpoint to poll
 * @param awsUrl the AWS spot instance-action URL
 * @param gceUrl the GCE preempted URL
 * @param azureUrl the Azure scheduled events URL
 * @param pollInterval time between two polls
 * @param preemptionMargin how long before the provider's deadline a notice-triggered save must finish
 */
public record TriggerOptions(Set<TerminationSignal> signals, Duration signalDeadline, PreemptionNoticeSource preemption,
                             URI awsUrl, URI gceUrl, URI azureUrl, Duration pollInterval, Duration preemptionMargin) {

    /**
     * Checks the components and copies the signal set.
     *
     * @throws IllegalArgumentException when a duration is out of range (deadline and interval at least 1 ms,
     *     margin not negative)
     */
    public TriggerOptions {
        Objects.requireNonNull(signals, "signals");
        signals = Collections.unmodifiableSet(signals.isEmpty() ? EnumSet.noneOf(TerminationSignal.class) : EnumSet.copyOf(signals));
        Builder.positive(signalDeadline, "signalDeadline");
        Objects.requireNonNull(preemption, "preemption");
        Objects.requireNonNull(awsUrl, "awsUrl");
        Objects.requireNonNull(gceUrl, "gceUrl");
        Objects.requireNonNull(azureUrl, "azureUrl");
        Builder.positive(pollInterval, "pollInterval");
        Objects.requireNonNull(preemptionMargin, "preemptionMargin");
        if (preemptionMargin.isNegative()) {
            throw new IllegalArgumentException("preemptionMargin must not be negative: " + preemptionMargin);
        }
    }

    /** Options with every trigger off. */
    public static TriggerOptions disabled() {
        return builder().build();
    }

    /** A builder holding the defaults of {@link TriggerKeys}, with signal triggers and preemption polling off. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads the trigger keys of {@link TriggerKeys} from {@code parameters}.
     *
     * @throws ConfigurationException when a key that only matters for a disabled trigger was set explicitly
     *     (for example {@code TRIGGER_SIGNALS} while {@code TRIGGER_SIGNAL} is false), since the user then
     *     expects protection that would silently be missing
     */
    public static TriggerOptions from(Parameters parameters) {
        boolean signalsOn = parameters.get(TriggerKeys.TRIGGER_SIGNAL);
        PreemptionNoticeSource source = parameters.get(TriggerKeys.PREEMPTION_NOTICE);
        if (!signalsOn) {
            requireUnset(parameters, List.of(TriggerKeys.TRIGGER_SIGNALS, TriggerKeys.TRIGGER_SIGNAL_DEADLINE),
                    TriggerKeys.TRIGGER_SIGNAL, "true");
        }
        if (source == PreemptionNoticeSource.NONE) {
            requireUnset(parameters, List.of(TriggerKeys.PREEMPTION_AWS_URL, TriggerKeys.PREEMPTION_GCE_URL,
                    TriggerKeys.PREEMPTION_AZURE_URL, TriggerKeys.PREEMPTION_POLL_INTERVAL, TriggerKeys.PREEMPTION_MARGIN),
                    TriggerKeys.PREEMPTION_NOTICE, "AWS, GCE, AZURE or AUTO");
        }
        return new TriggerOptions(
                signalsOn ? TerminationSignal.parseList(parameters.get(TriggerKeys.TRIGGER_SIGNALS)) : Set.of(),
                parameters.get(TriggerKeys.TRIGGER_SIGNAL_DEADLINE), source,
                URI.create(parameters.get(TriggerKeys.PREEMPTION_AWS_URL).trim()),
                URI.create(parameters.get(TriggerKeys.PREEMPTION_GCE_URL).trim()),
                URI.create(parameters.get(TriggerKeys.PREEMPTION_AZURE_URL).trim()),
                parameters.get(TriggerKeys.PREEMPTION_POLL_INTERVAL), parameters.get(TriggerKeys.PREEMPTION_MARGIN));
    }

    private static void requireUnset(Parameters parameters, List<ParameterKey<?>> keys, ParameterKey<?> switchKey, String needed) {
        for (ParameterKey<?> key : keys) {
            if (parameters.isSet(key)) {
                throw new ConfigurationException(key.name() + " is set (in " + parameters.source(key) + ") but "
                        + switchKey.name() + " is " + parameters.get(switchKey) + " (" + parameters.source(switchKey)
                        + "), so it would have no effect: set " + switchKey.name() + " to " + needed + ", or remove " + key.name());
            }
        }
    }

    /**
     * Builds {@link TriggerOptions}. A setter rejects a bad value with {@link IllegalArgumentException} and a
     * second call of the same setter with {@link IllegalStateException}.
     */
    public static final class Builder {
        private Set<TerminationSignal> signals;
        private Duration signalDeadline;
        private PreemptionNoticeSource preemption;
        private URI awsUrl;
        private URI gceUrl;
        private URI azureUrl;
        private Duration pollInterval;
        private Duration preemptionMargin;

        private Builder() {
        }

        /** The signals that trigger a save (none by default). */
        public Builder signals(Set<TerminationSignal> value) {
            Objects.requireNonNull(value, "signals");
            requireFirst(signals, "signals");
            signals = EnumSet.noneOf(TerminationSignal.class);
            signals.addAll(value);
            return this;
        }

        /** How long after a signal the process waits for the save (default 25 s); at least 1 ms. */
        public Builder signalDeadline(Duration value) {
            requireFirst(signalDeadline, "signalDeadline");
            signalDeadline = positive(value, "signalDeadline");
            return this;
        }

        /** Which metadata endpoint to poll (default {@link PreemptionNoticeSource#NONE}). */
        public Builder preemption(PreemptionNoticeSource value) {
            requireFirst(preemption, "preemption");
            preemption = Objects.requireNonNull(value, "preemption");
            return this;
        }

        /** The AWS spot instance-action URL. */
        public Builder awsUrl(URI value) {
            requireFirst(awsUrl, "awsUrl");
            awsUrl = httpUrl(value, "awsUrl");
            return this;
        }

        /** The GCE preempted URL. */
        public Builder gceUrl(URI value) {
            requireFirst(gceUrl, "gceUrl");
            gceUrl = httpUrl(value, "gceUrl");
            return this;
        }

        /** The Azure scheduled events URL. */
        public Builder azureUrl(URI value) {
            requireFirst(azureUrl, "azureUrl");
            azureUrl = httpUrl(value, "azureUrl");
            return this;
        }

        /** Time between two polls (default 1 s); at least 1 ms. */
        public Builder pollInterval(Duration value) {
            requireFirst(pollInterval, "pollInterval");
            pollInterval = positive(value, "pollInterval");
            return this;
        }

        /** How long before the provider's deadline a notice-triggered save must finish (default 5 s); not negative. */
        public Builder preemptionMargin(Duration value) {
            requireFirst(preemptionMargin, "preemptionMargin");
            Objects.requireNonNull(value, "preemptionMargin");
            if (value.isNegative()) {
                throw new IllegalArgumentException("preemptionMargin must not be negative: " + value);
            }
            preemptionMargin = value;
            return this;
        }

        /** The options; changes nothing in this builder. */
        public TriggerOptions build() {
            return new TriggerOptions(signals == null ? Set.of() : signals,
                    or(signalDeadline, TriggerKeys.TRIGGER_SIGNAL_DEADLINE.defaultValue()),
                    or(preemption, TriggerKeys.PREEMPTION_NOTICE.defaultValue()),
                    or(awsUrl, URI.create(TriggerKeys.DEFAULT_AWS_URL)), or(gceUrl, URI.create(TriggerKeys.DEFAULT_GCE_URL)),
                    or(azureUrl, URI.create(TriggerKeys.DEFAULT_AZURE_URL)),
                    or(pollInterval, TriggerKeys.PREEMPTION_POLL_INTERVAL.defaultValue()),
                    or(preemptionMargin, TriggerKeys.PREEMPTION_MARGIN.defaultValue()));
        }

        private static <T> T or(T value, T fallback) {
            return value != null ? value : fallback;
        }

        private static void requireFirst(Object current, String name) {
            if (current != null) {
                throw new IllegalStateException(name + " was already set to " + current);
            }
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.toMillis() < 1) {
                throw new IllegalArgumentException(name + " must be at least 1 ms: " + value);
            }
            return value;
        }

        private static URI httpUrl(URI value, String name) {
            Objects.requireNonNull(value, name);
            if (!TriggerKeys.isHttpUrl(value.toString())) {
                throw new IllegalArgumentException(name + " must be an absolute http:// or https:// URL with a host: " + value);
            }
            return value;
        }
    }
}
