package io.ironloop.runtime.tasks;

import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.tasks.StealMessages.Control;
import io.ironloop.runtime.tasks.StealMessages.Kind;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one peer's steal requests, round after round, on a thread of its own. {@link ProcessGroup}
 * receives from one (source, tag) pair at a time and has no any-source receive, so a victim serves each
 * possible thief with its own service; point-to-point operations on distinct pairs are safe from
 * concurrent threads (the group's mailbox is locked, its transports are thread-safe).
 *
 * <p>Rounds are served in the order the application starts them (the same order on every rank). A round
 * ends for this service when the peer says {@link Kind#DONE}; the peer sends nothing more in that round,
 * so no message of a round is left behind when the next one begins.
 */
final class PeerService implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerService.class);

    private final ProcessGroup group;
    private final int peer;
    private final TaskPoolListener listener;
    private final Consumer<RuntimeException> failureSink;
    private final BlockingQueue<RoundState> rounds = new LinkedBlockingQueue<>();

    PeerService(ProcessGroup group, int peer, TaskPoolListener listener, Consumer<RuntimeException> failureSink) {
        this.group = group;
        this.peer = peer;
        this.listener = listener;
        this.failureSink = failureSink;
    }

    /** Makes {@code round} the next round this service answers in. */
    void enqueue(RoundState round) {
        rounds.add(round);
    }

    @Override
    public void run() {
        try {
            boolean serving = true;
            while (serving) {
                serving = serve(rounds.take());
            }
        } catch (InterruptedException e) {
            LOG.debug("task pool service for rank {} at rank {} stopped", peer, group.rank());
        } catch (ProcessFailedException | IllegalStateException e) {
            // a member failed, the pool was closed (interrupt) or the group was closed under it
            LOG.debug("task pool service for rank {} at rank {} ends: {}", peer, group.rank(), e.getMessage());
        } catch (RuntimeException e) {
            failureSink.accept(e);
        }
    }

    /** Serves one round until the peer is done with it; false if the service must stop (a foreign message). */
    private boolean serve(RoundState state) {
        int serviceTag = StealMessages.serviceTag(state.round);
        int replyTag = StealMessages.replyTag(state.round);
        while (true) {
            byte[] message = group.receive(peer, serviceTag);
            Control c;
            try {
                c = StealMessages.decodeControl(message, peer);
            } catch (IllegalStateException foreign) {
                failureSink.accept(foreign);
                return false;
            }
            String problem = state.mismatch(peer, c.round(), c.fingerprint());
            if (problem != null) {
                failureSink.accept(new IllegalStateException(problem));
            }
            if (c.kind() == Kind.DONE) {
                return true;
            }
            if (problem != null) {
                group.send(peer, replyTag, StealMessages.mismatch(state.round));
                continue;
            }
            List<Integer> tasks = state.giveTail(peer);
            group.send(peer, replyTag, StealMessages.grant(state.round, tasks));
            if (!tasks.isEmpty()) {
                listener.tasksGivenAway(state.round, peer, tasks);
            }
        }
    }
}
