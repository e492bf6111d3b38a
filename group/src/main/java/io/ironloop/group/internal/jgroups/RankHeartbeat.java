package io.ironloop.group.internal.jgroups;

import io.ironloop.group.HeartbeatArrangement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.TimeScheduler;

/**
 * Heartbeat failure detection whose traffic grows as N, not N² (JGroups' FD_ALL3 is all-to-all).
 *
 * <ul>
 *   <li>{@link HeartbeatArrangement#STAR} (DeLIA): members heartbeat to the coordinator, the coordinator
 *       to every member: 2(N−1) messages per interval.
 *   <li>{@link HeartbeatArrangement#RING} (RADIC's watchdog ring): each member heartbeats to its successor
 *       in the view and watches its predecessor: N messages per interval.
 * </ul>
 *
 * <p>Any message from a watched member counts as a heartbeat. A watched member silent for longer than
 * {@code timeout} is suspected: the suspicion goes up this stack and, as a SUSPECT message, to the
 * coordinator; {@code VERIFY_SUSPECT2} above then makes the verifying member ask the suspect directly
 * before the membership excludes it (RADIC's third-party verification). A suspicion is raised again after
 * each further {@code timeout} while it lasts.
 */
public final class RankHeartbeat extends Protocol {
    private final long intervalMillis;
    private final long timeoutMillis;
    private final HeartbeatArrangement arrangement;
    private final Map<Address, Long> lastHeard = new ConcurrentHashMap<>();
    private final Map<Address, Long> suspectedAt = new ConcurrentHashMap<>();
    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private volatile List<Address> members = List.of();
    private volatile Address coordinator;
    private TimeScheduler timer;
    private Future<?> senderTask;
    private Future<?> checkerTask;

    /** For JGroups' reflection only; use {@link #RankHeartbeat(long, long, HeartbeatArrangement)}. */
    public RankHeartbeat() {
        this(1000, 5000, HeartbeatArrangement.STAR);
    }

    public RankHeartbeat(long intervalMillis, long timeoutMillis, HeartbeatArrangement arrangement) {
        if (arrangement == HeartbeatArrangement.ALL_TO_ALL) {
            throw new IllegalArgumentException("ALL_TO_ALL uses JGroups' FD_ALL3, not " + getClass().getSimpleName());
        }
        if (intervalMillis <= 0 || intervalMillis >= timeoutMillis) {
            throw new IllegalArgumentException("heartbeat interval " + intervalMillis + " ms must be positive and below the timeout " + timeoutMillis + " ms");
        }
        this.intervalMillis = intervalMillis;
        this.timeoutMillis = timeoutMillis;
        this.arrangement = arrangement;
    }

    /** Heartbeats this member has sent. */
    public long heartbeatsSent() {
        return sent.sum();
    }

    /** Heartbeats this member has received. */
    public long heartbeatsReceived() {
        return received.sum();
    }

    @Override
    public void init() throws Exception {
        super.init();
        timer = getTransport().getTimer();
    }

    @Override
    public synchronized void stop() {
        cancelTasks();
        super.stop();
    }

    private synchronized void cancelTasks() {
        if (senderTask != null) {
            senderTask.cancel(false);
            senderTask = null;
        }
        if (checkerTask != null) {
            checkerTask.cancel(false);
            checkerTask = null;
        }
    }

    @Override
    public Object down(Event evt) {
        if (evt.getType() == Event.VIEW_CHANGE) {
            Object ret = down_prot.down(evt);
            handleView(evt.getArg());
            return ret;
        }
        return down_prot.down(evt);
    }

    private synchronized void handleView(View view) {
        List<Address> before = watched();
        members = List.copyOf(view.getMembers());
        coordinator = view.getCoord();
        lastHeard.keySet().retainAll(members);
        suspectedAt.keySet().retainAll(members);
        long now = System.nanoTime();
        for (Address a : watched()) {
            if (!before.contains(a)) {
                // newly watched (a new coordinator, a new ring neighbour): its timeout starts now, whatever
                // this member last heard from it, or the first check would suspect it at once
                lastHeard.put(a, now);
                suspectedAt.remove(a);
            }
        }
        if (members.size() > 1 && senderTask == null) {
            senderTask = timer.scheduleWithFixedDelay(this::sendHeartbeats, 0, intervalMillis, TimeUnit.MILLISECONDS, false);
            long check = Math.max(20, Math.min(intervalMillis / 4, timeoutMillis / 10));
            checkerTask = timer.scheduleWithFixedDelay(this::checkTimeouts, check, check, TimeUnit.MILLISECONDS, false);
        } else if (members.size() <= 1) {
            cancelTasks();
        }
    }

    /** Members this one sends heartbeats to. */
    List<Address> targets() {
        return neighbours(true);
    }

    /** Members this one watches. */
    List<Address> watched() {
        return neighbours(false);
    }

    private List<Address> neighbours(boolean successors) {
        List<Address> m = members;
        Address me = local_addr;
        int i = m.indexOf(me);
        if (m.size() < 2 || i < 0) {
            return List.of();
        }
        if (arrangement == HeartbeatArrangement.RING) {
            return List.of(m.get(Math.floorMod(i + (successors ? 1 : -1), m.size())));
        }
        if (me.equals(coordinator)) {
            List<Address> others = new ArrayList<>(m);
            others.remove(me);
            return others;
        }
        return coordinator == null ? List.of() : List.of(coordinator);
    }

    private void sendHeartbeats() {
        for (Address t : targets()) {
            Message hb = new EmptyMessage(t).setFlag(Message.Flag.OOB).setFlag(Message.TransientFlag.DONT_BLOCK)
                    .putHeader(id, new HeartbeatHeader(HeartbeatHeader.HEARTBEAT, List.of()));
            down_prot.down(hb);
            sent.increment();
        }
    }

    private void checkTimeouts() {
        long now = System.nanoTime();
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<Address> suspects = new ArrayList<>();
        for (Address a : watched()) {
            long last = lastHeard.computeIfAbsent(a, k -> now);
            if (now - last > timeoutNanos) {
                Long since = suspectedAt.get(a);
                if (since == null || now - since > timeoutNanos) {
                    suspectedAt.put(a, now);
                    suspects.add(a);
                }
            }
        }
        if (suspects.isEmpty()) {
            return;
        }
        log.warn("%s: no heartbeat for more than %d ms from %s; suspecting", local_addr, timeoutMillis, suspects);
        up_prot.up(new Event(Event.SUSPECT, suspects));
        Address coord = coordinator;
        if (coord != null && !coord.equals(local_addr) && !suspects.contains(coord)) {
            down_prot.down(new EmptyMessage(coord).setFlag(Message.Flag.OOB).setFlag(Message.TransientFlag.DONT_BLOCK)
                    .putHeader(id, new HeartbeatHeader(HeartbeatHeader.SUSPECT, suspects)));
        }
    }

    private void heardFrom(Address sender) {
        if (sender != null) {
            lastHeard.put(sender, System.nanoTime());
            suspectedAt.remove(sender);
        }
    }

    @Override
    public Object up(Message msg) {
        heardFrom(msg.getSrc());
        HeartbeatHeader hdr = msg.getHeader(id);
        if (hdr == null) {
            return up_prot.up(msg);
        }
        handle(hdr);
        return null;
    }

    @Override
    public void up(MessageBatch batch) {
        heardFrom(batch.sender());
        for (java.util.Iterator<Message> it = batch.iterator(); it.hasNext(); ) {
            Message m = it.next();
            HeartbeatHeader hdr = m.getHeader(id);
            if (hdr != null) {
                it.remove();
                handle(hdr);
            }
        }
        if (!batch.isEmpty()) {
            up_prot.up(batch);
        }
    }

    private void handle(HeartbeatHeader hdr) {
        if (hdr.type == HeartbeatHeader.HEARTBEAT) {
            received.increment();
        } else {
            List<Address> s = new ArrayList<>(hdr.suspects);
            s.retainAll(members);
            s.remove(local_addr);
            if (!s.isEmpty()) {
                up_prot.up(new Event(Event.SUSPECT, s));
            }
        }
    }
}
