package io.ironloop.group.launch;

import io.ironloop.ConfigurationException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the local launcher ({@code ironloop run}) tells each rank through its environment. Immutable.
 *
 * <p>The variable names are a contract shared by the launcher, the process group and the runtime:
 * <table>
 *   <caption>Rank environment</caption>
 *   <tr><th>variable</th><th>meaning</th></tr>
 *   <tr><td>{@value #RANK}</td><td>this rank, 0 ≤ rank &lt; size</td></tr>
 *   <tr><td>{@value #SIZE}</td><td>number of ranks in the job's group, spares included ({@code run -n N --spares S}
 *       starts N + S)</td></tr>
 *   <tr><td>{@value #JOB}</td><td>job id (also on the command line as {@code -Dironloop.job=ID})</td></tr>
 *   <tr><td>{@value #PEERS}</td><td>comma-separated {@code 127.0.0.1:port} of every rank, in rank order;
 *       each port was free on loopback when the attempt started</td></tr>
 *   <tr><td>{@value #SECRET_FILE}</td><td>file holding the job secret (owner-only permissions)</td></tr>
 *   <tr><td>{@value #ATTEMPT}</td><td>0 for the first launch, then 1, 2, … after each restart</td></tr>
 *   <tr><td>{@value #LAUNCHER}</td><td>{@code host:port} of the launcher's control socket</td></tr>
 *   <tr><td>{@value #PARAMS}</td><td>absolute path of the parameter file, when one was given</td></tr>
 *   <tr><td>{@value #SPARES}</td><td>how many of the ranks are spares: the last ones, ranks size − spares to
 *       size − 1, idle until they adopt a lost rank's work ({@code run --spares S}); 0 when absent</td></tr>
 *   <tr><td>{@value #HOST}</td><td>the failure domain (host) of this rank, for placing partner copies on
 *       another host: the real host name, or {@code host-K} for rank r of M with {@code run --fake-hosts H}
 *       (K = r × H / M, so consecutive ranks share a host); this host's name when absent</td></tr>
 * </table>
 *
 * @param rank this rank
 * @param size the number of ranks
 * @param jobId the job id
 * @param peers every rank's group address, in rank order
 * @param secretFile the job secret file
 * @param attempt the launch attempt, 0 first
 * @param launcher the launcher's control socket
 * @param params the parameter file, when one was given
 * @param spares how many of the {@code size} ranks are spares (the last ones), 0 ≤ spares &lt; size
 * @param host this rank's failure domain: a host name, real or faked by the launcher
 */
public record LaunchEnvironment(int rank, int size, String jobId, List<InetSocketAddress> peers, Path secretFile,
        int attempt, InetSocketAddress launcher, Optional<Path> params, int spares, String host) {

    /** Environment variable: this rank. */
    public static final String RANK = "IRONLOOP_RANK";
    /** Environment variable: the number of ranks. */
    public static final String SIZE = "IRONLOOP_SIZE";
    /** Environment variable: the job id. */
    public static final String JOB = "IRONLOOP_JOB";
    /** Environment variable: every rank's {@code host:port}, comma-separated, in rank order. */
    public static final String PEERS = "IRONLOOP_PEERS";
    /** Environment variable: the job secret file. */
    public static final String SECRET_FILE = "IRONLOOP_SECRET_FILE";
    /** Environment variable: the launch attempt (0, 1, 2, …). */
    public static final String ATTEMPT = "IRONLOOP_ATTEMPT";
    /** Environment variable: {@code host:port} of the launcher's control socket. */
    public static final String LAUNCHER = "IRONLOOP_LAUNCHER";
    /** Environment variable: absolute path of the parameter file (absent when none was given). */
    public static final String PARAMS = "IRONLOOP_PARAMS";
    /** Environment variable: how many of the ranks are spares, the last ones (0 when absent). */
    public static final String SPARES = "IRONLOOP_SPARES";
    /** Environment variable: this rank's host (failure domain), real or faked (this host's name when absent). */
    public static final String HOST = "IRONLOOP_HOST";
    /**
     * Environment variable: this rank's site, set by the launcher with {@code run --fake-sites S} (rank r of M on
     * {@code site-⌊r·S/M⌋}); read as the {@code SITE} parameter (docs/sites.md). Absent otherwise.
     */
    public static final String SITE = "IRONLOOP_SITE";

    /** System property on every rank's command line: the rank. */
    public static final String RANK_PROPERTY = "ironloop.rank";
    /** System property on every rank's command line: the job id. */
    public static final String JOB_PROPERTY = "ironloop.job";

    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException if a value is out of range, {@code peers} does not have
     *     {@code size} entries, or {@code host} is blank
     */
    public LaunchEnvironment {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(secretFile, "secretFile");
        Objects.requireNonNull(launcher, "launcher");
        Objects.requireNonNull(params, "params");
        peers = List.copyOf(peers);
        if (size < 1 || rank < 0 || rank >= size || attempt < 0) {
            throw new IllegalArgumentException("rank " + rank + " of size " + size + ", attempt " + attempt
                    + ": expected 0 <= rank < size and attempt >= 0");
        }
        if (peers.size() != size) {
            throw new IllegalArgumentException(peers.size() + " peers for " + size + " ranks");
        }
        if (spares < 0 || spares >= size) {
            throw new IllegalArgumentException(spares + " spares among " + size + " ranks: expected 0 <= spares < size");
        }
        if (host.isBlank()) {
            throw new IllegalArgumentException("the host must not be blank");
        }
    }

    /**
     * A launch environment without spares, on this host.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public LaunchEnvironment(int rank, int size, String jobId, List<InetSocketAddress> peers, Path secretFile,
            int attempt, InetSocketAddress launcher, Optional<Path> params) {
        this(rank, size, jobId, peers, secretFile, attempt, launcher, params, 0, localHostName());
    }

    /** Whether this rank is a spare: one of the last {@link #spares()} ranks. */
    public boolean isSpare() {
        return rank >= size - spares;
    }

    /**
     * This machine's host name, the default {@value #HOST}: {@code InetAddress.getLocalHost()}'s name, or
     * {@code localhost} when this host's name does not resolve.
     *
     * @return the host name
     */
    public static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost"; // a machine without a resolvable name is still one failure domain
        }
    }

    /**
     * The launch environment of this process.
     *
     * @return empty when this process was not started by the Ironloop launcher (no {@value #LAUNCHER})
     * @throws ConfigurationException if {@value #LAUNCHER} is set but a variable is missing or malformed
     */
    public static Optional<LaunchEnvironment> current() {
        return from(System.getenv());
    }

    /**
     * Reads a launch environment from a map of variables.
     *
     * @param env environment variables
     * @return empty when {@value #LAUNCHER} is not set
     * @throws ConfigurationException if {@value #LAUNCHER} is set but a variable is missing or malformed
     */
    public static Optional<LaunchEnvironment> from(Map<String, String> env) {
        String launcher = env.get(LAUNCHER);
        if (launcher == null || launcher.isBlank()) {
            return Optional.empty();
        }
        int rank = integer(env, RANK);
        int size = integer(env, SIZE);
        int attempt = integer(env, ATTEMPT);
        String job = required(env, JOB);
        List<InetSocketAddress> peers = new ArrayList<>();
        for (String peer : required(env, PEERS).split(",")) {
            peers.add(address(PEERS, peer.trim()));
        }
        String params = env.get(PARAMS);
        String spares = env.get(SPARES);
        String host = env.get(HOST);
        try {
            return Optional.of(new LaunchEnvironment(rank, size, job, peers, Path.of(required(env, SECRET_FILE)),
                    attempt, address(LAUNCHER, launcher.trim()),
                    params == null || params.isBlank() ? Optional.empty() : Optional.of(Path.of(params)),
                    spares == null || spares.isBlank() ? 0 : integer(env, SPARES),
                    host == null || host.isBlank() ? localHostName() : host.trim()));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("inconsistent launcher environment: " + e.getMessage()
                    + " (" + RANK + ", " + SIZE + ", " + ATTEMPT + ", " + PEERS + ", " + SPARES + ")", e);
        }
    }

    /**
     * Parses {@code host:port} (or {@code [v6-address]:port}) without a name lookup for literal addresses.
     *
     * @param variable the variable the text came from, for the message
     * @param text the address
     * @return the socket address
     * @throws ConfigurationException if the text is not {@code host:port} with a port in 1–65535
     */
    public static InetSocketAddress address(String variable, String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new ConfigurationException(variable + ": '" + text + "' is not host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigurationException(variable + ": '" + text + "' has no numeric port", e);
        }
        if (port < 1 || port > 65535) {
            throw new ConfigurationException(variable + ": port " + port + " in '" + text + "' is not in 1-65535");
        }
        return new InetSocketAddress(host, port);
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new ConfigurationException(name + " is not set although " + LAUNCHER
                    + " is: this process looks launched by ironloop run but its environment is incomplete");
        }
        return value.trim();
    }

    private static int integer(Map<String, String> env, String name) {
        String value = required(env, name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(name + "='" + value + "' is not an integer", e);
        }
    }
}
