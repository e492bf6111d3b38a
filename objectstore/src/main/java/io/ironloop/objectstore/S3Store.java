package io.ironloop.objectstore;

import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link Store} in an S3 bucket (any server speaking the S3 API): the file {@code series/file} is the object
 * {@code prefix + series/file}. What the object store gives and what this class adds:
 * <ul>
 *   <li><b>Atomic, durable publishing.</b> An object becomes visible only when its upload completes (S3's
 *       complete-multipart call), so a crashed writer leaves at most an incomplete multipart upload, which no
 *       listing or read ever shows. A file is "published" when that call returned.</li>
 *   <li><b>Multipart, resumable uploads</b> ({@link #copyFrom}): parts of {@link S3Location#partSize()} bytes. A copy
 *       interrupted by a crash leaves its upload open; the next copy of the same file finds it, checks every part the
 *       server kept against the local bytes (the part's MD5, its ETag) and uploads only what is missing.</li>
 *   <li><b>Checksums end to end.</b> Every part is sent with its {@code Content-MD5}, which the server checks on
 *       receipt (every S3 server does; S3Proxy rejects the newer {@code x-amz-checksum-*} headers with 501), and
 *       its returned ETag is compared with the MD5 of the bytes sent; the whole file's CRC32C, computed from the
 *       source before the upload, is stored as object metadata ({@value #CRC_METADATA}) and checked on every
 *       in-order read ({@link S3ReadChannel}), so a download verifies what the writer had.</li>
 * </ul>
 * An object store has no locks: {@link #lock} holds nothing (a remote level is written by the one engine that holds
 * the series' lock in its local store). {@link #removeTemporaries} aborts the incomplete uploads of a series.
 *
 * <p>Threading: thread-safe (the SDK client is); one thread per file being written.
 */
public final class S3Store implements Store {
    /** User metadata holding the whole object's CRC32C (8 hex digits) as uploaded. */
    public static final String CRC_METADATA = "ironloop-crc32c";
    private static final Logger LOG = LoggerFactory.getLogger(S3Store.class);

    private final S3Client s3;
    private final S3Location where;
    private final boolean ownsClient;
    /** Parts this store has uploaded (not counting those a resumed upload kept): what tests of resumption read. */
    final java.util.concurrent.atomic.AtomicLong partsUploaded = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param s3 the client (closed with this store when {@code ownsClient})
     * @param where bucket, prefix and part size
     */
    public S3Store(S3Client s3, S3Location where, boolean ownsClient) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.where = Objects.requireNonNull(where, "where");
        this.ownsClient = ownsClient;
    }

    @Override
    public String location() {
        return where.toString();
    }

    private String key(String name) {
        String[] parts = name.split("/", -1);
        if (parts.length != 2 || !StoreCatalog.NAME.matcher(parts[0]).matches() || !StoreCatalog.NAME.matcher(parts[1]).matches()) {
            throw new IllegalArgumentException("not a store-relative name series/file: " + name);
        }
        return where.prefix() + name;
    }

    @Override
    public List<String> listSeries() throws IOException {
        List<String> out = new ArrayList<>();
        try {
            for (CommonPrefix p : s3.listObjectsV2Paginator(b -> b.bucket(where.bucket()).prefix(where.prefix()).delimiter("/"))
                    .commonPrefixes()) {
                String s = p.prefix().substring(where.prefix().length(), p.prefix().length() - 1);
                if (StoreCatalog.NAME.matcher(s).matches()) {
                    out.add(s);
                }
            }
        } catch (SdkException e) {
            throw io("list the series of", where.toString(), e);
        }
        out.sort(null);
        return out;
    }

    @Override
    public List<String> listFiles(String series) throws IOException {
        String dir = where.prefix() + series + "/";
        List<String> out = new ArrayList<>();
        try {
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(where.bucket()).prefix(dir)).contents()) {
                String file = o.key().substring(dir.length());
                if (StoreCatalog.NAME.matcher(file).matches() && !file.endsWith(StoreCatalog.TEMP_SUFFIX)) {
                    out.add(series + "/" + file);
                }
            }
        } catch (SdkException e) {
            throw io("list", dir, e);
        }
        out.sort(null);
        return out;
    }

    @Override
    public long size(String name) throws IOException {
        return head(name).contentLength();
    }

    private HeadObjectResponse head(String name) throws IOException {
        String key = key(name);
        try {
            return s3.headObject(b -> b.bucket(where.bucket()).key(key));
        } catch (NoSuchKeyException e) {
            throw noSuchFile(name, e);
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw noSuchFile(name, e);
            }
            throw io("read the metadata of", name, e);
        } catch (SdkException e) {
            throw io("read the metadata of", name, e);
        }
    }

    /** The CRC32C recorded when {@code name} was uploaded, or -1 when it carries none (written by another tool). */
    long uploadedCrc(String name) throws IOException {
        String hex = head(name).metadata().get(CRC_METADATA);
        return hex == null ? -1 : Long.parseLong(hex, 16);
    }

    /**
     * {@inheritDoc} Read in order from start to end, the channel checks the whole object's CRC32C as uploaded.
     *
     * @throws CorruptCheckpointException (from the channel's last read) when that CRC32C does not match
     */
    @Override
    public SeekableByteChannel openRead(String name) throws IOException {
        HeadObjectResponse h = head(name);
        String crc = h.metadata().get(CRC_METADATA);
        String key = key(name);
        return new S3ReadChannel(name, h.contentLength(), crc == null ? -1 : Long.parseLong(crc, 16), (offset, length) -> {
            try {
                byte[] b = s3.getObjectAsBytes(r -> r.bucket(where.bucket()).key(key)
                        .range("bytes=" + offset + "-" + (offset + length - 1))).asByteArray();
                if (b.length != length) {
                    throw new CorruptCheckpointException(name, offset, "the object store gave " + b.length + " bytes for a range of "
                            + length + ": the object changed while being read");
                }
                return b;
            } catch (NoSuchKeyException e) {
                throw noSuchFile(name, e);
            } catch (SdkException e) {
                throw io("read", name, e);
            }
        }, (int) Math.min(where.partSize(), 64L << 20));
    }

    /** {@inheritDoc} Here the bytes are spooled to a local temporary file and uploaded by {@link PendingFile#publish()}. */
    @Override
    public PendingFile create(String name) throws IOException {
        String key = key(name);
        if (exists(key)) {
            throw new FileAlreadyExistsException(name, null, "a published file is never overwritten");
        }
        Path spool = Files.createTempFile("ironloop-s3-", StoreCatalog.TEMP_SUFFIX);
        FileChannel ch = FileChannel.open(spool, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new PendingFile() {
            @Override
            public WritableByteChannel channel() {
                return ch;
            }

            @Override
            public void publish() throws IOException {
                upload(name, ch, ch.size());
            }

            @Override
            public void close() {
                try {
                    ch.close();
                    Files.deleteIfExists(spool);
                } catch (IOException e) {
                    LOG.warn("could not remove spool file {}: {}", spool, e.toString());
                }
            }
        };
    }

    /**
     * {@inheritDoc} Here: a multipart upload read straight from {@code source}, resumed when an earlier copy of the
     * same file was interrupted (the parts the server kept are checked against the source and kept).
     */
    @Override
    public void copyFrom(SeekableByteChannel source, String name) throws IOException {
        if (exists(key(name))) {
            throw new FileAlreadyExistsException(name, null, "a published file is never overwritten");
        }
        upload(name, source, source.size());
    }

    private boolean exists(String key) throws IOException {
        try {
            s3.headObject(b -> b.bucket(where.bucket()).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw io("look up", key, e);
        } catch (SdkException e) {
            throw io("look up", key, e);
        }
    }

    /** Uploads {@code size} bytes of {@code in} as {@code name}, resuming an interrupted upload of the same bytes. */
    private void upload(String name, SeekableByteChannel in, long size) throws IOException {
        String key = key(name);
        long partSize = where.partSize();
        int partCount = (int) Math.max(1, (size + partSize - 1) / partSize);
        byte[] bytes = new byte[(int) Math.min(partSize, size)]; // one buffer for every part, read once each
        long crc;
        if (partCount == 1) { // one part: read once, checksummed from the buffer it is sent from
            readInto(in, 0, bytes, bytes.length);
            CRC32C c = new CRC32C();
            c.update(bytes, 0, bytes.length);
            crc = c.getValue();
        } else {
            crc = crcOf(in, size);
        }
        try {
            Resumed resumed = resume(key, in, size);
            String uploadId = resumed.uploadId().orElseGet(() -> s3.createMultipartUpload(b -> b.bucket(where.bucket()).key(key)
                    .metadata(Map.of(CRC_METADATA, hex(crc)))).uploadId());
            List<CompletedPart> parts = new ArrayList<>(resumed.parts());
            for (int n = parts.size() + 1; n <= partCount; n++) {
                int length = (int) Math.min(partSize, size - (n - 1) * partSize);
                if (partCount > 1) {
                    readInto(in, (n - 1) * partSize, bytes, length);
                }
                int number = n;
                byte[] digest = md5(bytes, length);
                String md5 = HexFormat.of().formatHex(digest);
                // the SDK reads the part from the buffer itself (RequestBody.fromBytes would copy it first)
                RequestBody body = RequestBody.fromContentProvider(() -> new java.io.ByteArrayInputStream(bytes, 0, length), length,
                        "application/octet-stream");
                String etag = s3.uploadPart(b -> b.bucket(where.bucket()).key(key).uploadId(uploadId).partNumber(number)
                        .contentMD5(Base64.getEncoder().encodeToString(digest)), body).eTag();
                if (!md5.equalsIgnoreCase(unquote(etag))) {
                    throw new CorruptCheckpointException(name, (n - 1) * partSize, "part " + n + " arrived damaged: ETag " + etag
                            + ", MD5 of the bytes sent " + md5);
                }
                parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
                partsUploaded.incrementAndGet();
            }
            s3.completeMultipartUpload(b -> b.bucket(where.bucket()).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
        } catch (SdkException e) {
            throw io("upload", name, e);
        }
        HeadObjectResponse h = head(name);
        String stored = h.metadata().get(CRC_METADATA);
        if (h.contentLength() != size || stored == null || Long.parseLong(stored, 16) != crc) {
            throw new CorruptCheckpointException(name, 0, "after the upload the object has " + h.contentLength() + " bytes and CRC32C "
                    + stored + ", the source " + size + " bytes and " + hex(crc) + ": remove the object and copy again");
        }
    }

    /** An open upload of the same key whose parts all match the source, with those parts. */
    private record Resumed(Optional<String> uploadId, List<CompletedPart> parts) {
    }

    private Resumed resume(String key, SeekableByteChannel in, long size) throws IOException {
        List<MultipartUpload> open = s3.listMultipartUploads(b -> b.bucket(where.bucket()).prefix(key)).uploads().stream()
                .filter(u -> u.key().equals(key)).toList();
        Resumed best = new Resumed(Optional.empty(), List.of());
        for (MultipartUpload u : open) {
            List<CompletedPart> kept = new ArrayList<>();
            long partSize = where.partSize();
            for (Part p : s3.listPartsPaginator(b -> b.bucket(where.bucket()).key(key).uploadId(u.uploadId())).parts()) {
                long offset = (p.partNumber() - 1L) * partSize;
                boolean next = p.partNumber() == kept.size() + 1;
                boolean fits = offset < size && p.size() == Math.min(partSize, size - offset);
                if (!next || !fits || !HexFormat.of().formatHex(md5(read(in, offset, p.size().intValue()))).equalsIgnoreCase(unquote(p.eTag()))) {
                    break;
                }
                kept.add(CompletedPart.builder().partNumber(p.partNumber()).eTag(p.eTag()).build());
            }
            if (best.uploadId().isEmpty() && !kept.isEmpty()) {
                best = new Resumed(Optional.of(u.uploadId()), kept);
                LOG.info("resuming the interrupted upload of {}: {} of its parts are already in {}", key, kept.size(), where);
            } else {
                s3.abortMultipartUpload(b -> b.bucket(where.bucket()).key(key).uploadId(u.uploadId()));
            }
        }
        return best;
    }

    private static byte[] read(SeekableByteChannel in, long offset, int length) throws IOException {
        byte[] b = new byte[length];
        readInto(in, offset, b, length);
        return b;
    }

    /** Reads bytes {@code [offset, offset + length)} of {@code in} into the start of {@code into}. */
    private static void readInto(SeekableByteChannel in, long offset, byte[] into, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(into, 0, length);
        in.position(offset);
        while (b.hasRemaining()) {
            if (in.read(b) < 0) {
                throw new IOException("the source ended at " + (offset + b.position()) + " while " + (offset + length) + " bytes were expected");
            }
        }
    }

    /** Windows a local file's CRC32C is computed over, mapped: no copy out of the page cache. */
    private static final long CRC_WINDOW = 256L << 20;

    /**
     * The CRC32C of the first {@code size} bytes of {@code in}, which the object's metadata must carry from the start
     * of the upload (S3 fixes user metadata at CreateMultipartUpload). A local file is mapped and checksummed in place
     * (the parts are then read once each, for their upload); another channel is read through a buffer.
     */
    private static long crcOf(SeekableByteChannel in, long size) throws IOException {
        CRC32C crc = new CRC32C();
        if (in instanceof FileChannel file) {
            for (long at = 0; at < size; at += CRC_WINDOW) {
                crc.update(file.map(FileChannel.MapMode.READ_ONLY, at, Math.min(CRC_WINDOW, size - at)));
            }
            return crc.getValue();
        }
        ByteBuffer b = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(Store.COPY_BUFFER, size)));
        in.position(0);
        long left = size;
        while (left > 0) {
            b.clear().limit((int) Math.min(b.capacity(), left));
            int n = in.read(b);
            if (n < 0) {
                throw new IOException("the source ended " + left + " bytes early");
            }
            crc.update(b.flip());
            left -= n;
        }
        return crc.getValue();
    }

    private static byte[] md5(byte[] bytes) {
        return md5(bytes, bytes.length);
    }

    private static byte[] md5(byte[] bytes, int length) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(bytes, 0, length);
            return md5.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    private static String hex(long crc) {
        return String.format("%08x", crc);
    }

    private static String unquote(String etag) {
        return etag == null ? "" : etag.replace("\"", "");
    }

    @Override
    public void delete(String name) throws IOException {
        String key = key(name);
        try {
            s3.deleteObject(b -> b.bucket(where.bucket()).key(key));
        } catch (SdkException e) {
            throw io("delete", name, e);
        }
    }

    /** {@inheritDoc} An object store has no locks: nothing is held (see the class comment). */
    @Override
    public AutoCloseable lock(String series) {
        return () -> { };
    }

    /** Aborts the incomplete multipart uploads of {@code series}: what a crashed writer left; returns how many. */
    @Override
    public int removeTemporaries(String series) throws IOException {
        String dir = where.prefix() + series + "/";
        int n = 0;
        try {
            for (MultipartUpload u : s3.listMultipartUploads(b -> b.bucket(where.bucket()).prefix(dir)).uploads()) {
                s3.abortMultipartUpload(b -> b.bucket(where.bucket()).key(u.key()).uploadId(u.uploadId()));
                LOG.info("aborted the incomplete upload of {} left by an interrupted write", u.key());
                n++;
            }
        } catch (SdkException e) {
            throw io("abort the incomplete uploads of", dir, e);
        }
        return n;
    }

    @Override
    public void close() {
        if (ownsClient) {
            s3.close();
        }
    }

    @Override
    public String toString() {
        return "S3Store[" + where + "]";
    }

    private static NoSuchFileException noSuchFile(String name, Exception cause) {
        NoSuchFileException e = new NoSuchFileException(name, null, "no such object");
        e.initCause(cause);
        return e;
    }

    private IOException io(String what, String name, SdkException e) {
        String code = e instanceof S3Exception s && s.awsErrorDetails() != null ? " [" + s.awsErrorDetails().errorCode() + ": "
                + s.awsErrorDetails().errorMessage() + "]" : "";
        return new IOException("cannot " + what + " " + name + " in " + where + ": " + e.getMessage() + code, e);
    }
}
