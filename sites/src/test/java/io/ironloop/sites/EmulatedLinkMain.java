package io.ironloop.sites;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * An {@link EmulatedLink} as a process, for a network namespace ({@link Netns#delay}): {@code EmulatedLinkMain LISTEN_HOST
 * LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS} relays connections made to the listening address to the target, every
 * byte one delay later each way; prints {@code listening HOST:PORT} once it accepts, then runs until killed.
 */
final class EmulatedLinkMain {
    private EmulatedLinkMain() {
    }

    public static void main(String[] args) throws Exception {
        EmulatedLink link = EmulatedLink.start(new InetSocketAddress(args[0], Integer.parseInt(args[1])),
                new InetSocketAddress(args[2], Integer.parseInt(args[3])), new EmulatedLink.Shape(Duration.ofMillis(Long.parseLong(args[4])), 0));
        System.out.println("listening " + link.hostPort());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
