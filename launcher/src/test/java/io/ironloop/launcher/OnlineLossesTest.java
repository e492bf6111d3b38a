package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The online-recovery books of an attempt, without processes: protection, losses, reports, deadline. */
class OnlineLossesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final List<TimelineEvent> events = new CopyOnWriteArrayList<>();
    private final LauncherLog log = new LauncherLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    private final OnlineLosses online = new OnlineLosses(0, 3, DEADLINE, new Timeline(events::add, log), log);

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void declareAll() {
        for (int r = 0; r < 3; r++) {
            online.declared(r, json("{\"online\":true}"));
        }
    }

    private static SupervisorInput.RankExited exit(int rank, int status, Instant at) {
        return new SupervisorInput.RankExited(0, rank, 100 + rank, status, at);
    }

    @Test
    void protects_onlyOnceEveryRankDeclaredOnline() {
        online.declared(0, json("{\"online\":true}"));
        online.declared(1, json("{\"online\":false}"));
        online.declared(2, json("{\"online\":true}"));
        assertThat(online.protects()).isFalse();

        online.declared(1, json("{\"online\":true}"));
        online.declared(1, json("{\"online\":true}"));

        assertThat(online.protects()).isTrue();
        assertThat(events).filteredOn(e -> e.type().equals(TimelineEvent.ONLINE_PROTECTED)).hasSize(1);
    }

    @Test
    void lost_thenRecovered_noDeadlineLeftAndCounted() {
        declareAll();
        online.lost(exit(1, 137, T0), 5L, true, "was killed");

        assertThat(online.nextDeadline()).contains(T0.plus(DEADLINE));
        assertThat(online.overdue(T0.plus(DEADLINE).minusMillis(1))).isEmpty();
        online.recovered(0, json("{\"lost\":[1],\"iteration\":4,\"source\":\"memory\"}"));

        assertThat(online.nextDeadline()).isEmpty();
        assertThat(online.overdue(T0.plus(DEADLINE.multipliedBy(2)))).isEmpty();
        assertThat(online.summary()).isEqualTo(new OnlineLosses.Summary(List.of(1), 1, Optional.empty()));
        assertThat(online.protects()).isTrue();
    }

    @Test
    void recovered_sameLossReportedByEverySurvivor_countedOnce() {
        declareAll();
        online.lost(exit(1, 137, T0), 5L, true, "was killed");

        online.recovered(0, json("{\"lost\":[1],\"iteration\":4,\"source\":\"memory\"}"));
        online.recovered(2, json("{\"lost\":[1],\"iteration\":4,\"source\":\"memory\"}"));

        assertThat(online.summary().recoveries()).isEqualTo(1);
        online.recovered(0, json("{\"lost\":[1, 2],\"iteration\":7,\"source\":\"disk\"}"));
        assertThat(online.summary().recoveries()).as("a report naming a new loss").isEqualTo(2);
    }

    @Test
    void recoveredBeforeTheExitArrives_exitStartsNoDeadline() {
        declareAll();
        online.recovered(0, json("{\"lost\":[2],\"iteration\":4,\"source\":\"disk\"}"));

        online.lost(exit(2, 137, T0), 4L, false, "was killed");

        assertThat(online.nextDeadline()).isEmpty();
        assertThat(events).filteredOn(e -> e.type().equals(TimelineEvent.RANK_LOST)).singleElement()
                .satisfies(e -> assertThat(e.fields()).doesNotContainKey("deadline_s"));
    }

    @Test
    void overdue_chargedToTheLostRankStopsNowAndEndsProtection() {
        declareAll();
        online.lost(exit(1, 137, T0), 5L, true, "was killed");

        OnlineLosses.Failure f = online.overdue(T0.plus(DEADLINE)).orElseThrow();

        assertThat(f.rank()).isEqualTo(1);
        assertThat(f.status()).isEqualTo(137);
        assertThat(f.stopNow()).isTrue();
        assertThat(f.cause()).contains("no survivor reported an online recovery from the loss of rank 1 within 10s");
        assertThat(online.protects()).isFalse();
        assertThat(online.summary().failure()).contains(f.cause());
        assertThat(online.overdue(T0.plus(DEADLINE.multipliedBy(3)))).as("reported once").isEmpty();
    }

    @Test
    void impossible_chargedToTheNamedLostRankSurvivorsExitThemselves() {
        declareAll();
        online.lost(exit(2, 134, T0), 5L, false, "crashed");

        OnlineLosses.Failure f = online.impossible(0, json("{\"lost\":[2],\"reason\":\"its partner is gone too\"}"));

        assertThat(f.rank()).isEqualTo(2);
        assertThat(f.status()).isEqualTo(134);
        assertThat(f.stopNow()).isFalse();
        assertThat(f.cause()).contains("cannot recover online from the loss of rank [2]", "its partner is gone too");
        assertThat(events).filteredOn(e -> e.type().equals(TimelineEvent.ONLINE_RECOVERY_FAILED)).hasSize(1);
    }

    @Test
    void rankHosts_fakeHostsGroupConsecutiveRanks_realHostOtherwise() {
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(3).spares(1).fakeHosts(2)
                .application(new Application("x.Main", Optional.empty()));
        RankHosts fake = RankHosts.of(b.build());
        assertThat(List.of(fake.of(0), fake.of(1), fake.of(2), fake.of(3))).containsExactly("host-0", "host-0", "host-1", "host-1");
        RankHosts three = RankHosts.of(LaunchSpec.builder().ranks(5).fakeHosts(3).application(new Application("x.Main", Optional.empty())).build());
        assertThat(List.of(three.of(0), three.of(1), three.of(2), three.of(3), three.of(4)))
                .containsExactly("host-0", "host-0", "host-1", "host-1", "host-2");
        RankHosts real = RankHosts.of(LaunchSpec.builder().ranks(2).application(new Application("x.Main", Optional.empty())).build());
        assertThat(real.of(1)).isEqualTo(io.ironloop.group.launch.LaunchEnvironment.localHostName());
        assertThat(real.siteOf(1)).isEmpty();
    }

    @Test
    void rankHosts_fakeSitesGroupConsecutiveRanks_tooManyRefused() {
        RankHosts sites = RankHosts.of(LaunchSpec.builder().ranks(6).spares(1).fakeSites(3)
                .application(new Application("x.Main", Optional.empty())).build());
        assertThat(java.util.stream.IntStream.range(0, 7).mapToObj(r -> sites.siteOf(r).orElseThrow()).toList())
                .containsExactly("site-0", "site-0", "site-0", "site-1", "site-1", "site-2", "site-2");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LaunchSpec.builder().ranks(2).fakeSites(3)
                .application(new Application("x.Main", Optional.empty())).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--fake-sites 3");
    }

    @Test
    void protectSites_needsTwoSitesAFolderAndHostsWithinOneSite() {
        java.util.function.Supplier<LaunchSpec.Builder> b = () -> LaunchSpec.builder().ranks(6)
                .application(new Application("x.Main", Optional.empty())).protectSites(SiteProtection.withSpares(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.get().folder(java.nio.file.Path.of("ckpt")).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--fake-sites");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.get().fakeSites(3).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("FT_FOLDER");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.get().fakeSites(3).fakeHosts(2).folder(java.nio.file.Path.of("ckpt")).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("host-0 in two sites");
        LaunchSpec ok = b.get().fakeSites(3).fakeHosts(6).folder(java.nio.file.Path.of("ckpt")).build();
        assertThat(ok.siteProtection()).contains(SiteProtection.withSpares(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SiteProtection(0, java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(2), false)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SITE_TIMEOUT");
    }
}
