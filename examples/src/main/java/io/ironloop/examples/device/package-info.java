/**
 * The heterogeneous examples (the CPPC + HPL paper's testbed at sizes for a 2-core machine): sparse
 * matrix-vector product and Floyd–Warshall on one device, SUMMA matrix multiplication (malleable) and a
 * shallow-water simulation (pseudo-malleable) on several. Each runs on the Java device or OpenCL; see
 * {@link io.ironloop.examples.device.DeviceRank}.
 */
package io.ironloop.examples.device;
