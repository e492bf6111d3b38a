package io.ironloop.cli.view;

import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Parses an option with an optional port ({@code --dashboard [PORT]}): the next argument is its port only when it is
 * a number, so {@code --dashboard com.example.Main} leaves the main class alone and means port 0 (the kernel
 * chooses).
 */
public final class OptionalPort implements CommandLine.IParameterPreprocessor {
    @Override
    public boolean preprocess(Stack<String> args, CommandSpec commandSpec, ArgSpec argSpec, Map<String, Object> info) {
        String port = !args.isEmpty() && args.peek().matches("\\d{1,5}") ? args.pop() : "0";
        argSpec.setValue(Integer.valueOf(port));
        return true;
    }
}
