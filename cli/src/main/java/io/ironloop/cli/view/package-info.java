/**
 * Seeing what a run does: the timeline file a launcher leaves in the job's checkpoint folder
 * ({@link io.ironloop.cli.view.TimelineFile}, specified in {@code docs/timeline.md}), its picture as an SVG
 * ({@link io.ironloop.cli.view.TimelineSvg}, {@code ironloop timeline}), the dashboard
 * ({@link io.ironloop.cli.view.RunState}, {@link io.ironloop.cli.view.DashboardServer}, {@code ironloop run --dashboard},
 * {@code ironloop dashboard}), the launcher's Prometheus metrics ({@link io.ironloop.cli.view.LauncherMetrics}) and
 * progress bars on a terminal ({@link io.ironloop.cli.view.ProgressBar}). Everything here listens to the launcher's
 * timeline events through {@link io.ironloop.cli.view.RunObservers}, its one event listener; nothing here changes
 * how a job runs.
 */
package io.ironloop.cli.view;
