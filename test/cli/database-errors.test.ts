import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, writeFileSync } from "node:fs";
import { TEST_SECRET_KEY } from "../helpers/app.ts";
import { freePort } from "../helpers/binary.ts";
import { dbPath, runCli, useDataDirs } from "../helpers/cli.ts";
import { freshPostgresDatabase, type PostgresDatabase, postgresTestUrl } from "../helpers/postgres.ts";

/**
 * A database that cannot be opened is named by its cause, in one French line
 * with what to do, by the server, `migrate` and every other command alike
 * (issue 46): before, all of them printed « Erreur inattendue : Failed query:
 * SELECT to_regclass(…) » on PostgreSQL, and SQLite's English on a file.
 */
const dataDir = useDataDirs();

/** The server, `migrate` and a reading command, on the same database: each result. */
async function everyEntry(env: Record<string, string>) {
  const dir = await dataDir({ empty: true });
  const commands = [["serve"], ["migrate"], ["users", "list"]];
  return commands.map((c) => runCli(c, dir, { PORT: String(freePort()), HOST: "127.0.0.1", SECRET_KEY: TEST_SECRET_KEY, ...env }));
}

function expectOneLine(results: Array<{ code: number; stderr: string }>, line: string) {
  for (const r of results) {
    expect(r.stderr.trim()).toBe(line);
    expect(r.code).toBe(1);
  }
}

const databases: PostgresDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
});

describe.skipIf(postgresTestUrl() === undefined)("PostgreSQL", () => {
  const cluster = () => new URL(postgresTestUrl()!);

  test("a database that does not exist", async () => {
    const url = cluster();
    url.pathname = "/unisson_absente";
    expectOneLine(
      await everyEntry({ DATABASE_URL: url.toString() }),
      `Connexion à PostgreSQL impossible : cette base n'existe pas (créez-la d'abord, vide) (${url}).`,
    );
  });

  test("a user the server does not know", async () => {
    const pg = (await freshPostgresDatabase())!;
    databases.push(pg);
    const url = new URL(pg.url);
    url.username = "inconnu";
    url.password = "secret";
    const shown = new URL(url);
    shown.password = "***";
    expectOneLine(
      await everyEntry({ DATABASE_URL: url.toString() }),
      `Connexion à PostgreSQL impossible : utilisateur « inconnu » refusé (inconnu, ou non autorisé par pg_hba.conf) : créez-le (CREATE ROLE inconnu LOGIN PASSWORD '…') ou corrigez DATABASE_URL (${shown}).`,
    );
  });

  test("a server that is down (nothing listens on the port)", async () => {
    const url = cluster();
    url.port = String(freePort());
    expectOneLine(
      await everyEntry({ DATABASE_URL: url.toString() }),
      `Connexion à PostgreSQL impossible : connexion refusée (serveur arrêté, mauvais hôte ou mauvais port ?) : démarrez PostgreSQL ou corrigez l'hôte et le port de DATABASE_URL (${url}).`,
    );
  });

  test("TLS asked of a server without it", async () => {
    const pg = (await freshPostgresDatabase())!;
    databases.push(pg);
    const url = `${pg.url}?sslmode=require`;
    expectOneLine(
      await everyEntry({ DATABASE_URL: url }),
      `Connexion à PostgreSQL impossible : le serveur n'accepte pas TLS alors que DATABASE_URL le demande (sslmode) : activez ssl dans PostgreSQL, ou retirez sslmode de l'URL sur un réseau de confiance (${url}).`,
    );
  });
});

describe("SQLite", () => {
  test("a file that is not a SQLite database", async () => {
    const dir = await dataDir({ empty: true });
    writeFileSync(dbPath(dir), "Ceci est un fichier texte, pas une base de données. ".repeat(10));
    const results = ["serve", "migrate", "stats"].map((c) => runCli([c], dir, { PORT: String(freePort()), HOST: "127.0.0.1" }));
    expectOneLine(
      results,
      `${dbPath(dir)} n'est pas une base SQLite (fichier d'un autre type, ou chiffré) : vérifiez DATA_DIR et DATABASE_PATH, ou restaurez une sauvegarde (backups/).`,
    );
  });

  test("a database whose folder the process may not write (SQLite's -wal and -shm go there)", async () => {
    const dir = await dataDir();
    // As root the commands run as uid 65534, who owns the file but not the right to write the folder.
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65534 : process.getuid!();
    if (asRoot) {
      chownSync(dir, uid, uid);
      chownSync(dbPath(dir), uid, uid);
    }
    chmodSync(dir, 0o500);
    const runAs = asRoot ? ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"] : [];
    const r = runCli(["users", "list"], dir, {}, runAs);
    chmodSync(dir, 0o700);
    expect(r.stderr.trim()).toBe(
      `La base ${dbPath(dir)} est en lecture seule : le processus (uid ${uid}) doit pouvoir écrire le fichier et le dossier ${dir} (SQLite y crée ses fichiers -wal et -shm) ; donnez-lui le dossier (\`chown -R\`) ou montez-le en écriture.`,
    );
    expect(r.code).toBe(1);
  });
});
