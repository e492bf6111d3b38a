package io.ironloop.group.internal.jgroups;

import io.ironloop.group.launch.JobSecret;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.util.UUID;

/**
 * JGroups AUTH token proving that a joining member holds the job secret: HMAC-SHA256 over the joiner's
 * own address, keyed by a key derived from the secret. Checked by the coordinator on every JOIN and
 * MERGE request (a second line behind the {@link SecretHandshake} on every connection).
 */
public final class JobSecretToken extends AuthToken {
    private byte[] key;
    private byte[] mac = new byte[0];

    /** For JGroups, which instantiates received tokens reflectively. */
    public JobSecretToken() {
    }

    JobSecretToken(JobSecret secret) {
        this.key = secret.derive("ironloop-auth-v1");
    }

    @Override
    public String getName() {
        return getClass().getName();
    }

    @Override
    public int size() {
        return Integer.BYTES + 32;
    }

    @Override
    public boolean authenticate(AuthToken token, Message msg) {
        if (token == this) {
            return true; // a request this member sent to itself (e.g. as merge leader) is not serialized
        }
        if (!(token instanceof JobSecretToken other) || key == null) {
            log.warn("refusing %s: its join request carries no job-secret token", msg.getSrc());
            return false;
        }
        boolean ok = MessageDigest.isEqual(other.mac, macOf(msg.getSrc()));
        if (!ok) {
            log.warn("refusing %s: its join request's job-secret proof is wrong", msg.getSrc());
        }
        return ok;
    }

    private byte[] macOf(Address a) {
        try {
            ByteBuffer b = ByteBuffer.allocate(16);
            if (a instanceof UUID u) {
                b.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            }
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m.doFinal(b.array());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        byte[] m = key != null && auth != null && auth.getAddress() != null ? macOf(auth.getAddress()) : new byte[32];
        out.writeInt(m.length);
        out.write(m);
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 64) {
            throw new IOException("job-secret token of " + n + " bytes");
        }
        mac = new byte[n];
        in.readFully(mac);
    }
}
