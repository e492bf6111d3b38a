/**
 * The object-store level (S3 API, AWS SDK for Java 2), provided to core's remote levels.
 */
module io.ironloop.objectstore {
    requires io.ironloop.core;
    requires org.slf4j;
    requires software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http.urlconnection;
    requires software.amazon.awssdk.http;

    exports io.ironloop.objectstore;

    provides io.ironloop.core.level.RemoteLevels.Provider with io.ironloop.objectstore.S3LevelProvider;
}
