package io.ironloop.cli;

import io.ironloop.config.ParameterTable;
import io.ironloop.runtime.RuntimeKeys;

/** Every layer's parameter keys, in documentation order: the one table behind files, help and README. */
final class AllParameters {
    static final ParameterTable TABLE = RuntimeKeys.TABLE;

    private AllParameters() {
    }
}
