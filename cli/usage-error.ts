import type { CommanderError } from "commander";
import { frCli } from "../src/i18n/fr-cli.ts";

/** The first 'quoted' part of commander's message: the option's flags or the argument's name. */
function quoted(message: string): string {
  return /'([^']+)'/.exec(message)?.[1] ?? "";
}

/**
 * A usage error as one French line and the way to the command's help
 * (issue 46): commander's own is English and followed by the whole help text.
 * `command` is the command line's command (`users show`), empty for the program.
 */
export function usageLine(e: CommanderError, command: string): string | undefined {
  const u = frCli.usageError;
  const line = (() => {
    switch (e.code) {
      case "commander.unknownOption":
        return u.unknownOption(quoted(e.message));
      case "commander.missingArgument":
        return u.missingArgument(quoted(e.message));
      case "commander.optionMissingArgument":
        return u.optionMissingValue(quoted(e.message));
      case "commander.missingMandatoryOptionValue":
        return u.missingOption(quoted(e.message));
      case "commander.excessArguments":
        return u.excessArguments;
      case "commander.conflictingOption":
        return u.conflicting;
      case "commander.invalidArgument":
        // Our parsers' French message (cli/parse.ts) comes after commander's English preamble.
        return e.message.split(" is invalid. ").at(-1)!.trim().replace(/\.$/, "");
      default:
        return undefined;
    }
  })();
  // Two sentences: our parsers' messages already end with their period.
  return line === undefined ? undefined : `${line.endsWith(".") ? line : `${line}.`} ${u.help(command)}`;
}
