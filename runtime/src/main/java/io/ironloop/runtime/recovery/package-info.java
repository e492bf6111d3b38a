/**
 * Recovery: the restart path ({@link io.ironloop.runtime.recovery.RestartRecovery}: discover → verify → agree
 * on the recovery line → restore → resume) of DeLIA's API, and the online failure path inside a running job with
 * the block loops' restart path ({@link io.ironloop.runtime.recovery.OnlineRecovery}). Not exported: applications
 * call {@code Ironloop} or {@code BlockLoop}.
 */
package io.ironloop.runtime.recovery;
