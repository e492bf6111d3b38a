package io.ironloop.group.internal.jgroups;

import java.util.Collection;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;

/** Sits below VERIFY_SUSPECT2 and reports every (unverified) suspicion rising from the failure detectors. */
public final class SuspectObserver extends Protocol {
    private volatile Consumer<Address> sink = a -> { };

    void sink(Consumer<Address> s) {
        this.sink = s;
    }

    @Override
    public Object up(Event evt) {
        if (evt.getType() == Event.SUSPECT) {
            Collection<Address> suspects = evt.getArg();
            if (suspects != null) {
                suspects.forEach(a -> sink.accept(a));
            }
        }
        return up_prot.up(evt);
    }
}
