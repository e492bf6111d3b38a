/**
 * Heterogeneous devices (CPPC + HPL): arrays with per-device validity and lazy transfers, kernels with access
 * intents, a pure-Java CPU device and OpenCL devices through JOCL, and the checkpoint consistency protocol with
 * restart on another device type or number of devices.
 */
module io.ironloop.device {
    requires transitive io.ironloop.core;
    requires jocl;
    requires org.slf4j;

    exports io.ironloop.device;
}
