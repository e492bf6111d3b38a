/** Engine internals: stores, commit records, staging, persisting and retention. Not exported. */
package io.ironloop.core.internal;
