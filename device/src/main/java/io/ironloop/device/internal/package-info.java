/** Device back ends (pure Java, OpenCL through JOCL) and element-type helpers; not exported. */
package io.ironloop.device.internal;
