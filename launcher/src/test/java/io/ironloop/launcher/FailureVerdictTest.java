package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Seeded random sequences of failed attempts: which ones {@link FailureVerdict} calls deterministic. */
class FailureVerdictTest {

    private static AttemptOutcome failed(Optional<RankError> error, boolean injected) {
        return new AttemptOutcome(1, 0, OptionalLong.of(7), injected, Optional.empty(), Optional.empty(), error);
    }

    @Test
    void randomSequences_stopExactlyAtAConfigurationErrorOrTheFirstRepeatOfTheSameErrorAtTheSameIteration() {
        Random random = new Random(15);
        String[] exceptions = {"java.lang.IllegalStateException", "java.io.UncheckedIOException"};
        String[] messages = {"diverged", "No space left on device"};
        for (int run = 0; run < 200; run++) {
            FailureVerdict verdict = new FailureVerdict();
            RankError previous = null;
            for (int attempt = 0; attempt < 6; attempt++) {
                boolean injected = random.nextInt(5) == 0;
                Optional<RankError> error = random.nextInt(4) == 0 ? Optional.empty()
                        : Optional.of(new RankError(random.nextInt(3), exceptions[random.nextInt(2)], messages[random.nextInt(2)],
                                random.nextInt(8) == 0, random.nextBoolean() ? OptionalLong.of(random.nextInt(3)) : OptionalLong.empty()));
                Optional<String> stop = verdict.deterministic(failed(error, injected));
                RankError e = error.orElse(null);
                boolean expected = !injected && e != null && (e.configuration() || previous != null && previous.sameAs(e));
                String what = "run " + run + " attempt " + attempt + ": " + error + " after " + previous + (injected ? " (injected)" : "");
                assertThat(stop.isPresent()).as(what).isEqualTo(expected);
                stop.ifPresent(s -> assertThat(s).as(what).contains(e.describe()));
                previous = injected ? null : e;
            }
        }
    }

    @Test
    void sameErrorOnAnotherRank_isRetried() {
        FailureVerdict verdict = new FailureVerdict();
        RankError on1 = new RankError(1, "java.lang.IllegalStateException", "boom", false, OptionalLong.of(4));
        RankError on2 = new RankError(2, "java.lang.IllegalStateException", "boom", false, OptionalLong.of(4));
        assertThat(verdict.deterministic(failed(Optional.of(on1), false))).isEmpty();
        assertThat(verdict.deterministic(failed(Optional.of(on2), false))).isEmpty();
        assertThat(verdict.deterministic(failed(Optional.of(on2), false))).isPresent();
    }

    @Test
    void sameErrorAtAnotherIteration_isRetried() {
        FailureVerdict verdict = new FailureVerdict();
        RankError at4 = new RankError(1, "java.lang.IllegalStateException", "boom", false, OptionalLong.of(4));
        RankError at5 = new RankError(1, "java.lang.IllegalStateException", "boom", false, OptionalLong.of(5));
        assertThat(verdict.deterministic(failed(Optional.of(at4), false))).isEmpty();
        assertThat(verdict.deterministic(failed(Optional.of(at5), false))).isEmpty();
        assertThat(verdict.deterministic(failed(Optional.of(at5), false))).get().asString()
                .startsWith("rank 1 threw IllegalStateException at iteration 5: boom").contains("deterministic");
    }
}
