/**
 * Ironloop's foundation: the exception hierarchy and the parameter system shared by every layer.
 */
module io.ironloop.base {
    requires transitive com.fasterxml.jackson.databind;
    requires org.slf4j;
    requires java.management;
    requires jdk.management;

    exports io.ironloop;
    exports io.ironloop.config;
}
