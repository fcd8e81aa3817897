import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { getUserByEmailOrFail } from "../../src/admin/admin.service.ts";
import { listApiKeys, revokeApiKey, toPublicApiKey } from "../../src/auth/api-keys.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print, table } from "../output.ts";
import { positiveInt } from "../parse.ts";

/** `unisson users api-keys <email> [--revoke ID]`: an account's personal keys (never their secrets). */
export function registerUserApiKeys(users: Command, opts: (cmd: Command) => GlobalOptions) {
  users
    .command("api-keys")
    .description("liste les clés d'API d'un compte, ou en révoque une (--revoke)")
    .argument("<email>")
    .option("--revoke <id>", "révoque la clé n° id", positiveInt("--revoke"))
    .action(async (email: string, o: { revoke?: number }, cmd: Command) => {
      const out = await withDeps(opts(cmd), async (deps) => {
        const user = await getUserByEmailOrFail(deps, email);
        if (o.revoke !== undefined) await revokeApiKey(deps.db, user.id, o.revoke, deps.clock.now());
        return { email: user.email, revoked: o.revoke ?? null, keys: (await listApiKeys(deps.db, user.id)).map(toPublicApiKey) };
      });
      print(opts(cmd), out, () => {
        const head = out.revoked !== null ? `${frCli.users.keyRevoked(out.revoked)}\n\n` : "";
        if (out.keys.length === 0) return `${head}${frCli.users.noKeys(out.email)}`;
        const rows = out.keys.map((k) => [k.id, k.name, `${k.prefix}…`, dateFr(k.created_at), k.last_used_at ? dateFr(k.last_used_at) : frCli.users.never]);
        return `${head}${table(["ID", "Nom", "Début", "Créée le", "Dernière utilisation"], rows)}\n\n${frCli.users.keyCount(out.keys.length, out.email)}`;
      });
    });
}
