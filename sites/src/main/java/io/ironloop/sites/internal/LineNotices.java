package io.ironloop.sites.internal;

import io.ironloop.config.Parameters;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.runtime.event.CommittedLineObserver;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.sites.SiteDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank on a protected site tells its site's cluster protector about each line it commits, so that the protector ships
 * it at once instead of at its next look at the store (docs/sites.md, "Error masking in the ranks"). The service the
 * runtime finds ({@link CommittedLineObserver.Provider}); it has something to do only in a process whose environment
 * names the protectors ({@link SiteDirectory#fromEnvironment}: {@code ironloop run --fake-sites} gives every rank).
 *
 * <p>Never in the application's way: a notice is queued (at most {@value #QUEUED}; when full, the oldest is dropped —
 * the protector's look at the store still finds its line) and sent by one daemon thread per process, through the
 * {@link SiteDirectory}, which follows a moved protector (its learning is published as
 * {@link RuntimeEvent.ProtectorMoved} on the stream of the loop whose line it was). A protector that cannot be reached
 * is logged once, and again only after it was reached since.
 */
public final class LineNotices implements CommittedLineObserver.Provider {
    /** Notices waiting to be sent, at most. */
    static final int QUEUED = 16;
    private static final Logger LOG = LoggerFactory.getLogger(LineNotices.class);
    /** One sender per process, made by the first loop that finds the protectors in the environment. */
    private static Sender sender; // guarded by LineNotices.class

    /** For {@link java.util.ServiceLoader}. */
    public LineNotices() {
    }

    @Override
    public Optional<CommittedLineObserver> observer(Parameters parameters, Consumer<RuntimeEvent> publish) {
        Optional<Sender> s = sender(parameters, System.getenv());
        return s.map(to -> (series, iteration) -> to.offer(new Notice(series, iteration, publish)));
    }

    private static synchronized Optional<Sender> sender(Parameters parameters, Map<String, String> env) {
        if (sender != null || env.get(SiteDirectory.PROTECTORS_ENV) == null) {
            return Optional.ofNullable(sender);
        }
        try {
            Path secretFile = parameters.get(GroupKeys.SECRET_FILE);
            Optional<SiteDirectory> directory = secretFile == null ? Optional.empty() : SiteDirectory.fromEnvironment(env,
                    JobSecret.load(secretFile), parameters.get(GroupKeys.SITE_ENCRYPT), parameters.get(GroupKeys.SITE_TIMEOUT));
            directory.ifPresent(d -> sender = new Sender(d));
        } catch (RuntimeException e) { // never the application's failure: its protector finds its lines in the store as before
            LOG.warn("lines committed here are not announced to the site's protector: {}", e.getMessage());
        }
        return Optional.ofNullable(sender);
    }

    /** A line to tell the protector about, and where what is learnt on the way is published. */
    record Notice(String series, long iteration, Consumer<RuntimeEvent> publish) {
    }

    /** The queue and its thread. */
    static final class Sender implements Runnable {
        private final SiteDirectory directory;
        private final LinkedBlockingDeque<Notice> queue = new LinkedBlockingDeque<>(QUEUED);
        private boolean unreachable; // the sender's thread only: a failure was logged and nothing was reached since

        Sender(SiteDirectory directory) {
            this.directory = directory;
            Thread t = new Thread(this, "ironloop-site-notices");
            t.setDaemon(true);
            t.start();
            LOG.info("lines committed here are announced to the cluster protector of site {} at {} (table v{})", directory.site(),
                    directory.protectorOf(directory.site()), directory.version());
        }

        /** Queues a notice; never blocks: when the queue is full, the oldest notice gives way. */
        void offer(Notice n) {
            while (!queue.offerLast(n)) {
                queue.pollFirst();
            }
        }

        /** The notices waiting, oldest first. */
        List<Notice> waiting() {
            return List.copyOf(queue);
        }

        @Override
        public void run() {
            while (true) {
                Notice n;
                try {
                    n = queue.takeFirst();
                } catch (InterruptedException e) {
                    return;
                }
                send(n);
            }
        }

        private void send(Notice n) {
            String site = directory.site();
            try {
                directory.committed(n.series(), n.iteration()).ifPresent(m -> n.publish().accept(new RuntimeEvent.ProtectorMoved(m.site(),
                        m.from(), m.to(), m.tableVersion(), m.askedAt(), n.series(), n.iteration())));
                if (unreachable) {
                    LOG.info("the cluster protector of site {} is reached again at {}", site, directory.protectorOf(site));
                    unreachable = false;
                }
            } catch (IOException | RuntimeException e) {
                if (!unreachable) {
                    LOG.warn("cannot tell the cluster protector of site {} at {} about the line of {} at iteration {} ({}); it ships it when"
                            + " it finds it in the store. Not logged again until it is reached", site, directory.protectorOf(site),
                            n.series(), n.iteration(), e.toString());
                    unreachable = true;
                }
            }
        }
    }
}
