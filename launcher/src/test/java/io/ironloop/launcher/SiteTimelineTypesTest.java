package io.ironloop.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.sites.SiteEvent;
import org.junit.jupiter.api.Test;

/** The timeline types of the site protectors' events: what the launcher records and the demo and tools look for. */
class SiteTimelineTypesTest {
    @Test
    void ofSite_everySiteEventRecord_siteDashKebabOfItsType() {
        assertThat(TimelineEvent.ofSite(SiteEvent.Declared.class)).isEqualTo("site-declared");
        assertThat(TimelineEvent.ofSite(SiteEvent.LinkCut.class)).isEqualTo("site-link-cut");
        assertThat(TimelineEvent.ofSite(SiteEvent.TableChanged.class)).isEqualTo("site-table-changed");
        assertThat(TimelineEvent.ofSite(SiteEvent.NodeDeclared.class)).isEqualTo("site-node-declared");
        assertThat(TimelineEvent.ofSite(SiteEvent.FailedOver.class)).isEqualTo("site-failed-over");
        assertThat(TimelineEvent.ofSite(SiteEvent.NodeStopped.class)).isEqualTo("site-node-stopped");
    }

    @Test
    void ofSite_theTypeAProtectorProcessPrints_sameAsItsRecord() {
        SiteEvent printed = new SiteEvent.FailedOver("site-0", "host-1", "host-0", "127.0.0.1:4000", 2);
        String type = SiteEvent.parse(printed.line()).getKey();

        assertThat(TimelineEvent.ofSite(type)).isEqualTo(TimelineEvent.ofSite(SiteEvent.FailedOver.class));
    }
}
