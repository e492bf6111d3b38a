package io.ironloop.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ironloop params}: prints every parameter key (the same table as the README's). */
@Command(name = "params", mixinStandardHelpOptions = true,
        description = "List every parameter: name, type, unit, default and meaning.")
final class ParamsCommand implements Callable<Integer> {
    @Option(names = "--markdown", description = "Print the table as Markdown (as in the README).")
    boolean markdown;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (markdown) {
            spec.commandLine().getOut().print(AllParameters.TABLE.markdown());
        } else {
            AllParameters.TABLE.helpLines().forEach(spec.commandLine().getOut()::println);
        }
        return 0;
    }
}
