/**
 * Parameters: one table of keys (name, type, unit, default, meaning) that feeds the parameter-file
 * parser, the environment and command-line overrides, {@code --help} and the README, so they never
 * disagree. Precedence: command line &gt; environment ({@code IRONLOOP_<KEY>}) &gt; file &gt; default.
 */
package io.ironloop.config;
