package io.ironloop.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.ConfigurationException;
import io.ironloop.RegularFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The parameter values of one program, each parsed and checked against its {@link ParameterKey}, with
 * where it came from. Immutable.
 *
 * <p>Precedence, highest first: command-line overrides, environment variables ({@code IRONLOOP_<KEY>}),
 * the JSON parameter file, the key's default. Unknown keys in a file or on the command line and values
 * that do not parse are a {@link ConfigurationException} naming the key, the value and its source.
 */
public final class Parameters {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_FILE_BYTES = 1 << 20;

    private final ParameterTable table;
    private final Map<String, Object> values;
    private final Map<String, String> sources;

    private Parameters(ParameterTable table, Map<String, Object> values, Map<String, String> sources) {
        this.table = table;
        this.values = Collections.unmodifiableMap(values);
        this.sources = Collections.unmodifiableMap(sources);
    }

    /** Only defaults. */
    public static Parameters defaults(ParameterTable table) {
        return new Parameters(table, new LinkedHashMap<>(), new LinkedHashMap<>());
    }

    /**
     * Loads parameters with their precedence.
     *
     * @param file the JSON parameter file, or null for none
     * @param environment the process environment (only {@code IRONLOOP_<KEY>} variables of known keys are read)
     * @param overrides command-line values by key name
     * @throws ConfigurationException for an unreadable file, malformed JSON, an unknown key or a bad value
     */
    public static Parameters load(ParameterTable table, Path file, Map<String, String> environment, Map<String, String> overrides) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        if (file != null) {
            readFile(table, file, values, sources);
        }
        for (ParameterKey<?> key : table.keys()) {
            String text = environment.get(key.environmentVariable());
            if (text != null) {
                put(key, text, "environment variable " + key.environmentVariable(), values, sources);
            }
        }
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            ParameterKey<?> key = table.find(e.getKey());
            if (key == null) {
                throw unknown(e.getKey(), "the command line", table);
            }
            put(key, e.getValue(), "the command line", values, sources);
        }
        for (ParameterKey<?> key : table.keys()) {
            String section = key.section();
            if (section != null && values.containsKey(key.name()) && !values.containsKey(section)) {
                values.put(section, Boolean.TRUE);
                sources.put(section, sources.get(key.name()));
            }
        }
        return new Parameters(table, values, sources);
    }

    /** The value of {@code key}: set explicitly, else its default (null when off by default). */
    @SuppressWarnings("unchecked")
    public <T> T get(ParameterKey<T> key) {
        requireKnown(key);
        return values.containsKey(key.name()) ? (T) values.get(key.name()) : key.defaultValue();
    }

    /** The value of {@code key}, or empty when it is off (neither set nor defaulted). */
    public <T> Optional<T> find(ParameterKey<T> key) {
        return Optional.ofNullable(get(key));
    }

    /** Whether {@code key} was set by the file, the environment or the command line. */
    public boolean isSet(ParameterKey<?> key) {
        requireKnown(key);
        return values.containsKey(key.name());
    }

    /** Where the value of {@code key} came from: a file, an environment variable, the command line, or "default". */
    public String source(ParameterKey<?> key) {
        return sources.getOrDefault(key.name(), "default");
    }

    /** These parameters with {@code key} set to {@code value} (as if given on the command line). */
    public <T> Parameters with(ParameterKey<T> key, T value) {
        requireKnown(key);
        Map<String, Object> v = new LinkedHashMap<>(values);
        Map<String, String> s = new LinkedHashMap<>(sources);
        v.put(key.name(), Objects.requireNonNull(value, "value"));
        s.put(key.name(), "the program");
        return new Parameters(table, v, s);
    }

    public ParameterTable table() {
        return table;
    }

    private void requireKnown(ParameterKey<?> key) {
        if (table.find(key.name()) != key) {
            throw new IllegalArgumentException("parameter " + key.name() + " is not in this program's table");
        }
    }

    private static void readFile(ParameterTable table, Path file, Map<String, Object> values, Map<String, String> sources) {
        JsonNode root;
        try {
            // a link to a shared parameter file is fine; what it leads to must be a regular file (a FIFO would block)
            Path real = file.toRealPath();
            if (RegularFiles.size(real) > MAX_FILE_BYTES) {
                throw new ConfigurationException("parameter file " + file + " is larger than 1 MiB: is it the right file?");
            }
            root = JSON.readTree(Files.readAllBytes(real));
        } catch (RegularFiles.NotRegularFileException e) {
            throw new ConfigurationException("parameter file " + file + (file.equals(Path.of(e.getFile())) ? "" : " (" + e.getFile() + ")")
                    + " " + e.getReason(), e);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException("parameter file " + file + " does not exist: check the --params path", e);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException("parameter file " + file + " is not valid JSON (line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + "): " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ConfigurationException("cannot read parameter file " + file + ": " + e, e);
        }
        if (root == null || !root.isObject()) {
            throw new ConfigurationException("parameter file " + file + " must hold one JSON object of KEY: value pairs");
        }
        readObject(table, file, root, "", values, sources);
    }

    private static void readObject(ParameterTable table, Path file, JsonNode node, String prefix,
                                   Map<String, Object> values, Map<String, String> sources) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String name = prefix + field.getKey();
            ParameterKey<?> key = table.find(name);
            String where = "parameter file " + file;
            if (key == null) {
                throw unknown(name, where, table);
            }
            JsonNode v = field.getValue();
            if (key.type() == ValueType.OBJECT) {
                if (!v.isObject()) {
                    throw new ConfigurationException(name + " in " + where + " must be a JSON object (its presence switches the feature on), not " + v);
                }
                values.put(name, Boolean.TRUE);
                sources.put(name, where);
                readObject(table, file, v, name + ".", values, sources);
            } else if (v.isValueNode() && !v.isNull()) {
                put(key, v.asText(), where, values, sources);
            } else {
                throw new ConfigurationException(name + " in " + where + " must be a " + key.type().label() + " value, not " + v);
            }
        }
    }

    private static void put(ParameterKey<?> key, String text, String where, Map<String, Object> values, Map<String, String> sources) {
        try {
            values.put(key.name(), key.parse(text));
            sources.put(key.name(), where);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("bad value for " + key.name() + " in " + where + ": " + e.getMessage()
                    + " (expected " + key.type().label() + (key.unit().isEmpty() ? "" : " [" + key.unit() + "]") + ": " + key.meaning() + ")", e);
        }
    }

    private static ConfigurationException unknown(String name, String where, ParameterTable table) {
        String hint = table.closest(name).map(k -> "did you mean '" + k + "'? ").orElse("");
        return new ConfigurationException("unknown parameter '" + name + "' in " + where + "; " + hint
                + "'ironloop params' lists the known parameters");
    }
}
