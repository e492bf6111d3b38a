package io.ironloop.sites;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Emulated sites on this machine: one network namespace per site, each with one veth interface on a bridge that lives in
 * a hub namespace of its own, addresses 10.213.0.N/24 inside those namespaces only (the host's network is untouched).
 * A link between two sites is cut by a blackhole route at each end, or made lossy by an iptables rule at each end that
 * drops a random share of the packets it sends to the other ({@code -m statistic --mode random}: this kernel has no
 * {@code sch_netem}); a site can delay what reaches it from the others ({@link #delay}: a NAT rule sends it through a
 * user-space {@link EmulatedLink} in its namespace); a site is partitioned by taking its interface down. Everything
 * is removed by {@link #close()} (deleting a namespace deletes its interfaces and its rules). Needs root and
 * {@code ip netns} ({@link #unavailableReason()}), and for loss and delay the {@code iptables} program
 * ({@link #iptablesUnavailableReason()}).
 */
final class Netns implements AutoCloseable {
    private final String prefix;
    private final List<String> created = new ArrayList<>();

    Netns() {
        this.prefix = "ils" + (ProcessHandle.current().pid() % 100_000);
    }

    /** Whether namespaces can be created here (root, iproute2, a kernel that allows it); why not, otherwise. */
    static String unavailableReason() {
        String probe = "ilsprobe" + (ProcessHandle.current().pid() % 100_000);
        try {
            if (run("ip", "netns", "add", probe) != 0) {
                return "'ip netns add' failed here (needs root and network namespaces)";
            }
            run("ip", "netns", "del", probe);
            return null;
        } catch (IOException e) {
            return "cannot run 'ip' (" + e.getMessage() + ")";
        }
    }

    /**
     * Whether random loss and delay can be set here: the {@code iptables} program (Debian package {@code iptables}, which
     * {@code .ci/run} installs), the kernel's {@code statistic} match and its NAT {@code REDIRECT}; why not, otherwise. Call after
     * {@link #unavailableReason()} found namespaces working.
     */
    static String iptablesUnavailableReason() {
        String probe = "ilsipt" + (ProcessHandle.current().pid() % 100_000);
        try {
            run("iptables", "--version");
        } catch (IOException e) {
            return "the iptables program is not installed (" + e.getMessage() + "; Debian package iptables, which .ci/run installs)";
        }
        try {
            if (run("ip", "netns", "add", probe) != 0) {
                return "'ip netns add' failed here";
            }
            try {
                if (run("ip", "netns", "exec", probe, "iptables", "-A", "OUTPUT", "-m", "statistic", "--mode", "random",
                        "--probability", "0.5", "-j", "DROP") != 0) {
                    return "'iptables -m statistic' failed here (no statistic match in this kernel?)";
                }
                return run("ip", "netns", "exec", probe, "iptables", "-t", "nat", "-A", "PREROUTING", "-p", "tcp", "--dport", "1", "-j",
                        "REDIRECT", "--to-ports", "2") == 0 ? null : "'iptables -t nat … -j REDIRECT' failed here (no NAT in this kernel?)";
            } finally {
                run("ip", "netns", "del", probe);
            }
        } catch (IOException e) {
            return "cannot probe iptables in a namespace (" + e.getMessage() + ")";
        }
    }

    /** The namespace of a site. */
    String ns(String site) {
        return prefix + "-" + site;
    }

    /** The address of the n-th site (1-based). */
    static String address(int n) {
        return "10.213.0." + n;
    }

    /** Creates the hub with its bridge. */
    void hub() throws IOException {
        add(prefix + "-hub");
        must("ip", "-n", prefix + "-hub", "link", "add", "br0", "type", "bridge");
        must("ip", "-n", prefix + "-hub", "link", "set", "br0", "up");
    }

    /** Creates a site's namespace, wired to the bridge, with address {@link #address}(n). */
    void site(String site, int n) throws IOException {
        String ns = ns(site);
        add(ns);
        String peer = "v" + n;
        must("ip", "-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", peer, "netns", prefix + "-hub");
        must("ip", "-n", prefix + "-hub", "link", "set", peer, "master", "br0", "up");
        must("ip", "-n", ns, "addr", "add", address(n) + "/24", "dev", "eth0");
        must("ip", "-n", ns, "link", "set", "eth0", "up");
        must("ip", "-n", ns, "link", "set", "lo", "up");
    }

    /** Cuts (or restores) the link between two sites only. */
    void cut(String a, int na, String b, int nb, boolean cut) throws IOException {
        String verb = cut ? "add" : "del";
        must("ip", "-n", ns(a), "route", verb, "blackhole", address(nb) + "/32");
        must("ip", "-n", ns(b), "route", verb, "blackhole", address(na) + "/32");
    }

    /**
     * Makes the link between two sites drop each packet with probability {@code p}, in each direction (a rule at each
     * end on what it sends to the other); TCP retransmits what is dropped, so the protectors see delays and stalls.
     */
    void loss(String a, int na, String b, int nb, double p) throws IOException {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("a loss probability is in (0, 1), not " + p);
        }
        String probability = String.valueOf(p);
        must("ip", "netns", "exec", ns(a), "iptables", "-A", "OUTPUT", "-d", address(nb), "-m", "statistic", "--mode", "random",
                "--probability", probability, "-j", "DROP");
        must("ip", "netns", "exec", ns(b), "iptables", "-A", "OUTPUT", "-d", address(na), "-m", "statistic", "--mode", "random",
                "--probability", probability, "-j", "DROP");
    }

    /**
     * Delays every connection made to {@code port} of a site from another site: a NAT rule in the site's namespace
     * redirects them to {@code relayPort}, where the caller runs an {@link EmulatedLink} ({@link EmulatedLinkMain}) in
     * front of {@code address(n):port}; so each inter-site connection to the site crosses the relay, both directions
     * delayed by its delay, while the table keeps the site's own address (connections made inside the namespace are
     * not redirected).
     *
     * @return the command that runs the relay in the site's namespace (give it to a {@link ProcessBuilder})
     */
    List<String> delay(String site, int n, int port, int relayPort, long delayMillis) throws IOException {
        must("ip", "netns", "exec", ns(site), "iptables", "-t", "nat", "-A", "PREROUTING", "-p", "tcp", "--dport", String.valueOf(port),
                "-j", "REDIRECT", "--to-ports", String.valueOf(relayPort));
        List<String> cmd = new ArrayList<>(exec(site));
        cmd.addAll(List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), EmulatedLinkMain.class.getName(), address(n),
                String.valueOf(relayPort), address(n), String.valueOf(port), String.valueOf(delayMillis)));
        return cmd;
    }

    /** The packets a site's loss rules dropped so far (iptables' counters), to show that loss happened. */
    long dropped(String site) throws IOException {
        Process p = new ProcessBuilder("ip", "netns", "exec", ns(site), "iptables", "-L", "OUTPUT", "-v", "-n", "-x").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        long total = 0;
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\s+");
            if (f.length > 2 && f[2].equals("DROP")) {
                total += Long.parseLong(f[0]);
            }
        }
        return total;
    }

    /** Takes a site's interface down: it is cut off from every other site. */
    void partition(String site) throws IOException {
        must("ip", "-n", ns(site), "link", "set", "eth0", "down");
    }

    /** The command prefix that runs a program inside a site's namespace ({@code ip netns exec} execs it: same PID). */
    List<String> exec(String site) {
        return List.of("ip", "netns", "exec", ns(site));
    }

    private void add(String ns) throws IOException {
        must("ip", "netns", "add", ns);
        created.add(ns);
    }

    private static void must(String... cmd) throws IOException {
        if (run(cmd) != 0) {
            throw new IOException("failed: " + String.join(" ", cmd));
        }
    }

    private static int run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish");
            }
            if (p.exitValue() != 0 && !out.isBlank()) {
                System.err.println(String.join(" ", cmd) + ": " + out.strip());
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        for (String ns : created) {
            try {
                run("ip", "netns", "del", ns);
            } catch (IOException e) {
                System.err.println("could not delete namespace " + ns + ": " + e.getMessage());
            }
        }
    }
}
