/**
 * The object-store level: checkpoint lines kept in an S3 bucket through the AWS SDK for Java 2
 * ({@link io.ironloop.objectstore.S3Store}), switched on by the {@code S3_URI} parameter and found by the runtime
 * through {@link io.ironloop.core.level.RemoteLevels.Provider}. A module of its own so that users of core who do
 * not need it do not carry the SDK.
 */
package io.ironloop.objectstore;
