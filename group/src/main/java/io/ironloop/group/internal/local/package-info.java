/** The in-JVM transport: ranks as threads of one JVM, with simulated crashes and message filters for tests. */
package io.ironloop.group.internal.local;
