import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, closeSync, existsSync, openSync } from "node:fs";
import { basename, join } from "node:path";
import { dbPath, runCli, runCliAsync, useDataDirs } from "../helpers/cli.ts";
import { freshPostgresDatabase, type PostgresDatabase, postgresTestUrl, pgClient } from "../helpers/postgres.ts";
import { TEST_SECRET_KEY } from "../helpers/app.ts";
import { freePort } from "../helpers/binary.ts";
import { startSourceServer } from "../helpers/source-server.ts";

/** Each configuration or start error is one French line naming its cause (issue 36). */
const dataDir = useDataDirs();

describe("an unknown command", () => {
  test("is named, with the way to the list of commands (not taken for an argument of `serve`)", async () => {
    const r = runCli(["bogus-command"], await dataDir());
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("commande inconnue : bogus-command ; `unisson --help` donne la liste des commandes.");
  });

  test("under a group of commands points to that group's help", async () => {
    const r = runCli(["users", "bogus"], await dataDir());
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("commande inconnue : users bogus ; `unisson users --help` donne la liste des commandes.");
  });
});

describe("a usage error is one French line with the way to the command's help, exit 2 (issue 46)", () => {
  const help = (command: string) => `\`unisson ${command} --help\` donne l'usage de la commande.`;

  test("an unknown option", async () => {
    const r = runCli(["users", "list", "--bogus"], await dataDir());
    expect(r.stderr.trim()).toBe(`Option inconnue : --bogus. ${help("users list")}`);
    expect(r.code).toBe(2);
  });

  test("a missing argument", async () => {
    const r = runCli(["users", "show"], await dataDir());
    expect(r.stderr.trim()).toBe(`Argument manquant : <email>. ${help("users show")}`);
    expect(r.code).toBe(2);
  });

  test("a required option left out", async () => {
    const r = runCli(["db", "copy"], await dataDir());
    expect(r.stderr.trim()).toBe(`Option obligatoire absente : --to <url>. ${help("db copy")}`);
    expect(r.code).toBe(2);
  });

  test("a value our parsers refuse keeps their French sentence, without commander's English around it", async () => {
    const r = runCli(["users", "list", "--page", "0"], await dataDir());
    expect(r.stderr.trim()).toBe(`--page doit être un entier entre 1 et 1000000000. ${help("users list")}`);
    expect(r.code).toBe(2);
  });
});

describe("a malformed DATABASE_URL", () => {
  // A random password with a "/" left unencoded: the URL's host part ends at it.
  const env = { DATABASE_URL: "postgres://unisson:Sx9/k2Qz@127.0.0.1:5432/unisson" };

  test("stops `serve` with one line naming the variable, never the password", async () => {
    const r = runCli(["serve"], await dataDir({ empty: true }), env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      'Configuration invalide : DATABASE_URL="postgres://[masqué]@127.0.0.1:5432/unisson" n\'est pas une URL lisible : encodez les caractères spéciaux du mot de passe (/ ? # @ % espace, par exemple avec encodeURIComponent), ou choisissez un mot de passe de lettres et de chiffres.',
    ]);
    expect(r.stderr).not.toContain("Sx9");
    expect(r.stderr).not.toContain("k2Qz");
  });

  test("gives every other command the same line", async () => {
    const r = runCli(["users", "list"], await dataDir({ empty: true }), env);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith('Configuration invalide : DATABASE_URL="postgres://[masqué]@127.0.0.1:5432/unisson" n\'est pas une URL lisible');
  });
});

describe("a database without Unisson's tables", () => {
  test("an empty SQLite file asks for `unisson migrate`", async () => {
    const dir = await dataDir({ empty: true });
    closeSync(openSync(dbPath(dir), "w"));
    const r = runCli(["users", "list"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `La base ${dbPath(dir)} ne contient pas les tables d'Unisson (base vide, ou d'une autre application) : lancez \`unisson migrate\` (le serveur le fait aussi à son démarrage).`,
    );
  });
});

const pgDatabases: PostgresDatabase[] = [];
afterAll(async () => {
  for (const d of pgDatabases) await d.drop();
});

describe.skipIf(postgresTestUrl() === undefined)("a PostgreSQL database without Unisson's tables", () => {
  test("an empty database asks for `unisson migrate`, not « Failed query »", async () => {
    const pg = (await freshPostgresDatabase())!;
    pgDatabases.push(pg);
    const r = runCli(["stats"], await dataDir({ empty: true }), { DATABASE_URL: pg.url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `La base ${pg.url} ne contient pas les tables d'Unisson (base vide, ou d'une autre application) : lancez \`unisson migrate\` (le serveur le fait aussi à son démarrage).`,
    );
  });

  test("`serve` and `migrate` refuse one holding a table of Unisson's names, naming it, and change nothing", async () => {
    const pg = (await freshPostgresDatabase())!;
    pgDatabases.push(pg);
    const client = pgClient(pg.url);
    await client`CREATE TABLE users (id serial PRIMARY KEY, login text)`;
    const dir = await dataDir({ empty: true });
    // `serve` on PostgreSQL needs SECRET_KEY, refused before the database is opened (test/cli/secret-key-start.test.ts):
    // given here, so the database is what both commands refuse.
    for (const command of [["migrate"], ["serve"]]) {
      const r = runCli(command, dir, { DATABASE_URL: pg.url, PORT: String(freePort()), SECRET_KEY: TEST_SECRET_KEY });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `La base ${pg.url} contient déjà des tables d'une autre application (users) : Unisson a besoin d'une base à lui, vide (par exemple CREATE DATABASE unisson), rien n'a été modifié.`,
      );
    }
    const [row] = await client`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`;
    await client.close();
    expect(row.n).toBe(1);
  });

  test("another application's database gets the same line", async () => {
    const pg = (await freshPostgresDatabase())!;
    pgDatabases.push(pg);
    const client = pgClient(pg.url);
    await client`CREATE TABLE clients (id serial PRIMARY KEY, nom text)`;
    await client.close();
    const r = runCli(["users", "list"], await dataDir({ empty: true }), { DATABASE_URL: pg.url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toContain("ne contient pas les tables d'Unisson (base vide, ou d'une autre application) : lancez `unisson migrate`");
  });
});

describe.skipIf(postgresTestUrl() === undefined)("DATABASE_PASSWORD", () => {
  test("a password with any characters is given apart from DATABASE_URL and put in it encoded", async () => {
    const pg = (await freshPostgresDatabase())!;
    pgDatabases.push(pg);
    const r = runCli(["migrate", "--json"], await dataDir({ empty: true }), { DATABASE_URL: pg.url, DATABASE_PASSWORD: "Sx9/k2#Q?z@w%" });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const shown = new URL(pg.url);
    shown.password = "***";
    expect(r.json().database).toBe(shown.toString());
  });

  test("without DATABASE_URL it is refused, naming it", async () => {
    const r = runCli(["users", "list"], await dataDir(), { DATABASE_PASSWORD: "secret" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'Configuration invalide : DATABASE_PASSWORD="[masqué]" ne sert qu\'avec DATABASE_URL (postgres://utilisateur@hôte:port/base, sans mot de passe) : définissez-la aussi.',
    );
  });
});

describe("a data folder the process may not write", () => {
  test("stops `serve` naming the path, the uid it runs as and the fix", async () => {
    const dir = await dataDir({ empty: true });
    // As root the check is made as uid 65534 (root writes anywhere); otherwise the folder is made read-only.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(dir, 0o500);
    const uid = asRoot ? 65534 : process.getuid!();
    const gid = asRoot ? 65534 : process.getgid!();
    const r = runCli(["serve"], dir, { PORT: String(freePort()) }, asRoot ? ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups"] : []);
    chmodSync(dir, 0o700);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Écriture impossible dans ${dbPath(dir)} : le processus tourne sous l'uid ${uid} (gid ${gid}), qui n'a pas le droit d'écrire dans ${dir} ; donnez-lui le dossier (\`chown -R ${uid}:${gid} ${dir}\`) ou choisissez un autre DATA_DIR (--data-dir).`,
    );
  });
});

describe("unisson healthcheck", () => {
  test("asks the server of its own data folder, at the address it recorded", async () => {
    const dir = await dataDir();
    const server = await startSourceServer({ DATA_DIR: dir });
    try {
      expect(existsSync(join(dir, "server.json"))).toBe(true);
      // PORT unset here: the check does not guess 127.0.0.1:3000.
      const r = await runCliAsync(["healthcheck"], dir);
      expect(r.stderr).toBe("");
      expect(r.stdout.trim()).toBe("ok");
      expect(r.code).toBe(0);
    } finally {
      await server.stop();
    }
    expect(existsSync(join(dir, "server.json"))).toBe(false);
  });

  test("--json prints a JSON object (issue 46: it printed « ok »)", async () => {
    const dir = await dataDir();
    const server = await startSourceServer({ DATA_DIR: dir });
    try {
      const r = await runCliAsync(["healthcheck", "--json"], dir);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.json()).toEqual({ status: "ok", url: server.url, pid: expect.any(Number), database: dbPath(dir) });
    } finally {
      await server.stop();
    }
  });

  test("finds the server whatever way its data folder was written (the SQLite file is compared by its absolute path)", async () => {
    const dir = await dataDir();
    const server = await startSourceServer({ DATA_DIR: join(dir, "..", basename(dir)) });
    try {
      const r = await runCliAsync(["healthcheck"], dir);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
    } finally {
      await server.stop();
    }
  });

  test("is not fooled by another server answering on 127.0.0.1:$PORT", async () => {
    const decoy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ status: "ok" }) });
    try {
      const dir = await dataDir();
      const r = await runCliAsync(["healthcheck"], dir, { PORT: String(decoy.port) });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `Aucun serveur Unisson n'est démarré avec le dossier de données ${dir} (pas de server.json) : vérifiez DATA_DIR ou --data-dir.`,
      );
    } finally {
      decoy.stop(true);
    }
  });

  test("run with another database than its folder's server, says so", async () => {
    const dir = await dataDir();
    const server = await startSourceServer({ DATA_DIR: dir });
    try {
      const other = join(dir, "autre.db");
      const r = await runCliAsync(["healthcheck"], dir, { DATABASE_PATH: other });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `Le serveur du dossier ${dir} utilise la base ${dbPath(dir)}, pas ${other} : vérifiez DATABASE_URL, DATABASE_PATH ou DATA_DIR.`,
      );
    } finally {
      await server.stop();
    }
  });
});

describe("start-up refusals name their variable in one French line, exit 1 (issue 46)", () => {
  test("DATA_DIR naming a file, for `serve` and every command", async () => {
    const file = join(await dataDir({ empty: true }), "un-fichier");
    closeSync(openSync(file, "w"));
    for (const command of [["serve"], ["users", "list"]]) {
      const r = runCli(command, file, { PORT: String(freePort()) });
      expect(r.stderr.trim()).toBe(
        `Configuration invalide : DATA_DIR="${file}" est un fichier, pas un dossier : indiquez un dossier (créé s'il n'existe pas) avec DATA_DIR ou --data-dir.`,
      );
      expect(r.code).toBe(1);
    }
  });

  test("a PORT another program already listens on", async () => {
    const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    try {
      const r = await runCliAsync(["serve"], await dataDir(), { HOST: "127.0.0.1", PORT: String(taken.port) });
      expect(r.stderr.trim()).toBe(
        `Le port ${taken.port} est déjà utilisé (PORT=${taken.port}) : un autre programme, ou un autre serveur Unisson, l'occupe ; arrêtez-le (\`ss -ltnp 'sport = :${taken.port}'\` le nomme) ou choisissez un autre PORT.`,
      );
      expect(r.code).toBe(1);
    } finally {
      taken.stop(true);
    }
  });

  test("a HOST that is no address of this machine", async () => {
    const r = runCli(["serve"], await dataDir(), { HOST: "999.1.1.1", PORT: String(freePort()) });
    expect(r.stderr.trim()).toBe(
      "Configuration invalide : HOST=\"999.1.1.1\" n'est pas une adresse de cette machine : indiquez 0.0.0.0 (toutes ses adresses), 127.0.0.1 (elle seule), :: (IPv6) ou l'adresse d'une de ses interfaces.",
    );
    expect(r.code).toBe(1);
  });

  test("a PORT below 1024 without the right to it", async () => {
    // Port 1 on loopback: nothing listens there, and without CAP_NET_BIND_SERVICE (uid 65534 as root) binding it is refused.
    const dir = await dataDir({ empty: true });
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65534 : process.getuid!();
    if (asRoot) chownSync(dir, uid, uid);
    const r = runCli(["serve"], dir, { HOST: "127.0.0.1", PORT: "1" }, asRoot ? ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"] : []);
    expect(r.stderr.trim()).toBe(
      `Le port 1 (PORT=1) est réservé à root : le processus tourne sous l'uid ${uid} ; choisissez un PORT à partir de 1024 (derrière votre proxy), ou donnez-lui ce droit (\`setcap cap_net_bind_service=+ep\` sur l'exécutable, AmbientCapabilities=CAP_NET_BIND_SERVICE sous systemd).`,
    );
    expect(r.code).toBe(1);
  });
});
