package io.ironloop.launcher.rank;

import io.ironloop.group.launch.JobSecret;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The launcher's control protocol: one JSON object per line (UTF-8, {@code \n}-terminated, at most
 * {@value #MAX_LINE_BYTES} bytes), each with a string field {@code type}. Shared by the launcher and
 * {@link RankBootstrap}; applications use {@link LauncherLink} instead.
 *
 * <ol>
 *   <li>launcher → rank: {@code {"type":"challenge","version":1,"nonce":"<64 hex>"}}</li>
 *   <li>rank → launcher: {@code {"type":"hello","version":1,"job":J,"rank":R,"attempt":A,"pid":P,"mac":M}}
 *       where {@code M} is the {@link JobSecret#hmacHex control MAC} (HMAC-SHA256 under a key derived from
 *       the job secret) of {@link #helloMacInput}</li>
 *   <li>launcher → rank: {@code {"type":"welcome","sync":[i,…]}} or {@code {"type":"refused","reason":…}}
 *       followed by closing the connection. {@code sync} lists the iterations after whose
 *       {@code iteration} event the rank waits for an {@code ack} (fault injection points).</li>
 *   <li>rank → launcher: events, e.g. {@code {"type":"iteration","iteration":5}}; launcher → rank:
 *       {@code {"type":"ack","iteration":i}} for the synchronised iterations.</li>
 * </ol>
 *
 * <p>The connection stays open for the rank's whole life; its end tells the rank that the launcher is
 * gone. Methods are stateless; callers serialise writes to one stream.
 */
public final class ControlProtocol {
    /** Protocol version. */
    public static final int VERSION = 1;
    /** Longest accepted line, in bytes. */
    public static final int MAX_LINE_BYTES = 64 * 1024;

    /** Message type: the launcher's challenge. */
    public static final String CHALLENGE = "challenge";
    /** Message type: the rank's authenticated greeting. */
    public static final String HELLO = "hello";
    /** Message type: the launcher accepts the rank. */
    public static final String WELCOME = "welcome";
    /** Message type: the launcher refuses the connection. */
    public static final String REFUSED = "refused";
    /** Message type: the launcher lets a rank waiting at a synchronised iteration continue. */
    public static final String ACK = "ack";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ControlProtocol() {
    }

    /**
     * The text whose MAC a rank sends in its {@code hello}: binds the MAC to this connection's nonce and
     * to the claimed identity, so it can be neither replayed nor moved to another rank.
     *
     * @param nonce the launcher's challenge nonce
     * @param job the job id
     * @param rank the rank
     * @param attempt the attempt
     * @param pid the rank's process id
     * @return the MAC input
     */
    public static String helloMacInput(String nonce, String job, int rank, int attempt, long pid) {
        return "ironloop-launch-v" + VERSION + "\n" + nonce + "\n" + job + "\n" + rank + "\n" + attempt + "\n" + pid;
    }

    /** A new, empty message of the given type. */
    public static ObjectNode message(String type) {
        return JSON.createObjectNode().put("type", type);
    }

    /**
     * Writes one message as a line and flushes.
     *
     * @throws IOException if the stream fails
     */
    public static void write(OutputStream out, ObjectNode message) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(message);
        byte[] line = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, line, 0, bytes.length);
        line[bytes.length] = '\n';
        out.write(line);
        out.flush();
    }

    /**
     * Reads one message.
     *
     * @param in the stream (should be buffered)
     * @return the message, or empty at end of stream
     * @throws ProtocolException if the line is too long, not a JSON object or has no string {@code type};
     *     the offending line has then been consumed, so the next message can still be read
     * @throws IOException if the stream fails
     */
    public static Optional<ObjectNode> read(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                if (line.size() == 0) {
                    return Optional.empty();
                }
                throw new ProtocolException("connection closed in the middle of a message");
            }
            if (line.size() >= MAX_LINE_BYTES) {
                skipLine(in);
                throw new ProtocolException("message longer than " + MAX_LINE_BYTES + " bytes (skipped)");
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.UTF_8);
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("not JSON: " + abbreviate(text));
        }
        if (!(node instanceof ObjectNode object) || !object.path("type").isTextual()) {
            throw new ProtocolException("not a JSON object with a string \"type\": " + abbreviate(text));
        }
        return Optional.of(object);
    }

    private static void skipLine(InputStream in) throws IOException {
        int b;
        do {
            b = in.read();
        } while (b >= 0 && b != '\n');
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
