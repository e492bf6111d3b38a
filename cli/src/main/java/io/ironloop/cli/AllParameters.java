package io.ironloop.cli;

import io.ironloop.config.ParameterTable;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.GroupKeys;
import io.ironloop.runtime.trigger.TriggerKeys;

/** Every layer's parameter keys, in documentation order: the one table behind files, help and README. */
final class AllParameters {
    static final ParameterTable TABLE = ParameterTable.of(EngineKeys.ALL, GroupKeys.ALL, TriggerKeys.ALL);

    private AllParameters() {
    }
}
