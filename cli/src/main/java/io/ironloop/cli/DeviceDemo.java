package io.ironloop.cli;

import io.ironloop.examples.device.DeviceApp;
import java.util.List;

/**
 * What {@code ironloop demo} needs to know about the device apps ({@code io.ironloop.examples.device.DeviceRank}):
 * their arguments, sizes and default faults. Two SIGKILLs of the one host process, at about a third and two thirds
 * of the run and off the checkpoint iterations, so that a demo with {@code --restart-devices} restarts twice on the
 * other number of devices.
 */
final class DeviceDemo {
    static final String MAIN_CLASS = "io.ironloop.examples.device.DeviceRank";

    private DeviceDemo() {
    }

    static String names() {
        return String.join(", ", DeviceApp.NAMES);
    }

    static List<String> arguments(DemoApp app, String size) {
        return List.of(app.commandName(), size);
    }

    static String describe(DemoApp app, String size) {
        return DeviceApp.named(app.commandName(), size).describe();
    }

    static List<String> defaultFails(DemoApp app, String size) {
        DeviceApp a = DeviceApp.named(app.commandName(), size);
        long third = a.iterations() / 3;
        long offCheckpoint = a.checkpointEvery() > 1 ? a.checkpointEvery() / 2 : 0;
        long first = third / a.checkpointEvery() * a.checkpointEvery() + offCheckpoint;
        long second = 2 * third / a.checkpointEvery() * a.checkpointEvery() + offCheckpoint;
        return List.of("0@" + first, "0@" + second);
    }
}
