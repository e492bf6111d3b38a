package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.PreemptionNotice;
import java.util.Objects;

/** The outcome of one poll of a cloud metadata endpoint. */
sealed interface PollResult {

    /** The endpoint announced reclamation. */
    record Notice(PreemptionNotice notice) implements PollResult {
        public Notice {
            Objects.requireNonNull(notice, "notice");
        }
    }

    /** The endpoint answered in its provider's format and announced nothing. */
    record Quiet() implements PollResult {
    }

    /** No answer: connection refused, name not resolved, timeout. */
    record Unreachable(String reason) implements PollResult {
    }

    /** An answer that is not the provider's: an unexpected status, a missing header, a malformed body. */
    record Unrecognised(String reason) implements PollResult {
    }
}
