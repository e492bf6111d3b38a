package io.ironloop.core.level;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The remote levels a run's parameters configure, nearest first: the shared directory ({@link LevelKeys#SHARED_FOLDER}),
 * then those of the {@link Provider}s on the class or module path (the object store of {@code ironloop-objectstore}).
 */
public final class RemoteLevels {
    private RemoteLevels() {
    }

    /**
     * Configures one kind of remote level from the parameters; found with {@link ServiceLoader}, so a module that
     * brings heavy dependencies (an SDK) weighs only on the runs that use it.
     */
    public interface Provider {
        /** The level {@code p} configures, or empty when its keys are unset. */
        Optional<RemoteLevel> open(Parameters p);
    }

    /**
     * The levels {@code p} configures, nearest first; empty when none.
     *
     * @throws ConfigurationException when {@link LevelKeys#S3_URI} is set but no provider on the path opens it
     */
    public static List<RemoteLevel> open(Parameters p) {
        List<RemoteLevel> levels = new ArrayList<>();
        p.find(LevelKeys.SHARED_FOLDER).ifPresent(dir -> levels.add(RemoteLevel.sharedDirectory(dir.toAbsolutePath().normalize(),
                Math.toIntExact(p.get(LevelKeys.SHARED_RETAIN_LINES)), p.get(LevelKeys.SHARED_EVERY), p.get(LevelKeys.SHARED_BANDWIDTH))));
        int before = levels.size();
        for (Provider provider : ServiceLoader.load(Provider.class, RemoteLevels.class.getClassLoader())) {
            provider.open(p).ifPresent(levels::add);
        }
        if (p.find(LevelKeys.S3_URI).isPresent() && levels.size() == before) {
            levels.forEach(RemoteLevel::close);
            throw new ConfigurationException("S3_URI is set to " + p.get(LevelKeys.S3_URI) + " but the object-store level is not on the"
                    + " class path: add the dependency io.ironloop:ironloop-objectstore (bin/ironloop has it) or unset S3_URI");
        }
        return levels;
    }
}
