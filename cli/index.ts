import { Command, CommanderError } from "commander";
import { frCli } from "../src/i18n/fr-cli.ts";
import { APP_VERSION } from "../src/contracts/version.ts";
import { ConfigError } from "../src/config.ts";
import { AppError, RefusedError } from "../src/lib/errors.ts";
import { SecretKeyError } from "../src/council/secret-box.ts";
import { registerHealthcheck } from "./commands/healthcheck.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerServe, type StartServer } from "./commands/serve.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerBackup } from "./commands/backup.ts";
import { registerBilling } from "./commands/billing.ts";
import { registerCouncil } from "./commands/council.ts";
import { registerDb } from "./commands/db.ts";
import { registerMail } from "./commands/mail.ts";
import { registerPromo } from "./commands/promo.ts";
import { registerRenewals } from "./commands/renewals.ts";
import { registerStats } from "./commands/stats.ts";
import { registerUsage } from "./commands/usage.ts";
import { registerUsers } from "./commands/users.ts";
import { usageLine } from "./usage-error.ts";

/**
 * What the CLI needs from the server, handed in by the executable's entry
 * (src/main.ts), so the CLI never imports the server it starts.
 */
export type ServerEntry = { startServer: StartServer };

function buildProgram(server: ServerEntry): Command {
  const program = new Command()
    .name("unisson")
    .description("Unisson — plusieurs IA, une seule réponse. Serveur et outils d'administration.")
    .version(APP_VERSION, "-v, --version")
    .option("--json", "sortie JSON lisible par une machine")
    .option("--data-dir <dir>", "dossier des données (remplace DATA_DIR)")
    // Usage errors are printed by runCli, in French and on one line (cli/usage-error.ts); subcommands inherit this.
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  registerServe(program, server.startServer);
  registerMigrate(program);
  registerHealthcheck(program);
  registerUsers(program);
  registerStats(program);
  registerUsage(program);
  registerPromo(program);
  registerMail(program);
  registerRenewals(program);
  registerBilling(program);
  registerBackup(program);
  registerAudit(program);
  registerCouncil(program);
  registerDb(program);
  return program;
}

/**
 * Walks the command line down the command tree: the words of the commands it
 * names (`users show`), and the first word that names no command, if any.
 * `serve` is the default command, so commander alone would take an unknown
 * word for an argument of `serve` ("too many arguments for 'serve'").
 */
export function commandLine(program: Command, args: string[]): { path: string[]; unknown?: string } {
  let command = program;
  let rest = args;
  const path: string[] = [];
  while (command.commands.length > 0) {
    const [word, ...after] = command.parseOptions(rest).operands;
    if (word === undefined || word === "help") break;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return { path, unknown: word };
    path.push(word);
    command = next;
    rest = after;
  }
  return { path };
}

/** The first word that names no command, with the command it was looked up in. */
export function unknownCommand(program: Command, args: string[]): { word: string; parent: string } | undefined {
  // --help and --version answer on their own (and parsing them would print and exit).
  if (args.some((a) => ["-h", "--help", "-v", "--version"].includes(a))) return undefined;
  const { path, unknown } = commandLine(program, args);
  return unknown === undefined ? undefined : { word: [...path, unknown].join(" "), parent: path.join(" ") };
}

/** Exit codes: 0 success, 1 refused action (one clear line), 2 usage error. */
export async function runCli(argv: string[], server: ServerEntry): Promise<number> {
  // Looked up on a program of its own: parsing options leaves their values on the program.
  const unknown = unknownCommand(buildProgram(server), argv.slice(2));
  if (unknown) {
    console.error(frCli.unknownCommand(unknown.word, unknown.parent));
    return 2;
  }
  const program = buildProgram(server);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit through here too, with code 0.
      if (e.exitCode === 0) return 0;
      const line = usageLine(e, commandLine(buildProgram(server), argv.slice(2)).path.join(" "));
      if (line) console.error(line);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof RefusedError || e instanceof AppError || e instanceof SecretKeyError) {
      console.error(e.message);
      return 1;
    }
    console.error(`Erreur inattendue : ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
