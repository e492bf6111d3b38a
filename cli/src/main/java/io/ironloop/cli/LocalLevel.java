package io.ironloop.cli;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.Store;
import io.ironloop.runtime.blocks.BlockKeys;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The local level ({@code FT_FOLDER}) as a run lays it out: one store, or with {@code DISK_PER_HOST} one store per host
 * below it ({@code FT_FOLDER/<HOST>}, standing for each node's own disk). The tools read the host stores together
 * ({@link #store()}), as a relaunch decides over the union of every host's store, or one by one ({@link #stores()}).
 *
 * @param folder FT_FOLDER, absolute
 * @param stores each store by its path below FT_FOLDER ({@code ""} for FT_FOLDER itself, else the host's folder), in
 *     name order
 */
record LocalLevel(Path folder, Map<String, Path> stores) {
    /** The local level the parameters configure. */
    static LocalLevel of(Parameters p) throws IOException {
        return at(p.get(EngineKeys.FT_FOLDER), p.get(BlockKeys.DISK_PER_HOST));
    }

    /**
     * The store at {@code folder}; with {@code perHost}, every store at or below it (each host's folder, and FT_FOLDER
     * itself when it holds series, such as the DeLIA runtime's, which are not per host).
     */
    static LocalLevel at(Path folder, boolean perHost) throws IOException {
        Path abs = folder.toAbsolutePath().normalize();
        Map<String, Path> stores = new LinkedHashMap<>();
        if (perHost && java.nio.file.Files.isDirectory(abs)) {
            for (Path s : CheckpointPath.storesUnder(abs)) {
                stores.put(abs.relativize(s).toString(), s);
            }
        }
        if (stores.isEmpty()) {
            stores.put("", abs);
        }
        return new LocalLevel(abs, stores);
    }

    /** Whether the level is more than FT_FOLDER itself (host stores below it). */
    boolean perHost() {
        return !stores.keySet().equals(java.util.Set.of(""));
    }

    /** The level's stores read as one (read-only use); FT_FOLDER's own store when there is only that. */
    Store store() {
        if (!perHost()) {
            return Store.directory(folder);
        }
        List<Store> all = new ArrayList<>();
        stores.values().forEach(s -> all.add(Store.directory(s)));
        return new Union(folder + " (stores " + String.join(", ", stores.keySet().stream().map(k -> k.isEmpty() ? "." : k).toList()) + ")",
                all);
    }

    /**
     * Several stores read as one: the series and files of all of them; a file present in several is read from the first
     * (a line that one host's store holds twice counts once, as at a relaunch). Nothing can be written.
     */
    private record Union(String location, List<Store> parts) implements Store {
        @Override
        public List<String> listSeries() throws IOException {
            TreeSet<String> all = new TreeSet<>();
            for (Store s : parts) {
                all.addAll(s.listSeries());
            }
            return List.copyOf(all);
        }

        @Override
        public List<String> listFiles(String series) throws IOException {
            TreeSet<String> all = new TreeSet<>();
            for (Store s : parts) {
                all.addAll(s.listFiles(series));
            }
            return List.copyOf(all);
        }

        @Override
        public long size(String name) throws IOException {
            return holder(name).size(name);
        }

        @Override
        public SeekableByteChannel openRead(String name) throws IOException {
            return holder(name).openRead(name);
        }

        private Store holder(String name) throws IOException {
            String series = name.substring(0, Math.max(0, name.indexOf('/')));
            for (Store s : parts) {
                if (s.listFiles(series).contains(name)) {
                    return s;
                }
            }
            throw new NoSuchFileException(name + " in " + location);
        }

        @Override
        public PendingFile create(String name) {
            throw readOnly();
        }

        @Override
        public void delete(String name) {
            throw readOnly();
        }

        @Override
        public AutoCloseable lock(String series) {
            throw readOnly();
        }

        @Override
        public int removeTemporaries(String series) {
            throw readOnly();
        }

        private UnsupportedOperationException readOnly() {
            return new UnsupportedOperationException("the host stores of " + location + " are read together by the tools, which write nothing");
        }

        @Override
        public void close() {
            parts.forEach(Store::close);
        }
    }
}
