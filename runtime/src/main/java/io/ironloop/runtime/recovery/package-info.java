/**
 * Recovery: the restart path ({@link io.ironloop.runtime.recovery.RestartRecovery}: discover → verify → agree
 * on the recovery line → restore → resume) and the online failure path inside a running job. Internal to the
 * runtime; applications call {@code Ironloop}.
 */
package io.ironloop.runtime.recovery;
