import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dbPath, runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const root = join(import.meta.dir, "..", "..");
const dir = useDataDirs();

/** Starts the writer process and waits for its first commit. */
async function startWriter(file: string) {
  const proc = Bun.spawn([process.execPath, join(root, "test/helpers/db-writer.ts"), file], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`writer stopped: ${await new Response(proc.stderr).text()}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return proc;
}

function counts(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const users = (db.query("SELECT count(*) AS n FROM users").get() as { n: number }).n;
    const lonely = (
      db.query("SELECT count(*) AS n FROM users u WHERE (SELECT count(*) FROM conversations c WHERE c.user_id = u.id) <> 1").get() as { n: number }
    ).n;
    return { users, lonely };
  } finally {
    db.close();
  }
}

describe("unisson backup", () => {
  test("taken while another process writes: a sound, consistent copy that restores", async () => {
    const live = await dir();
    await withDb(live, () => undefined);
    const writer = await startWriter(dbPath(live));
    const target = join(await dir(), "sauvegardes", "unisson-copie.db");
    let r: ReturnType<typeof runCli>;
    try {
      r = runCli(["backup", target, "--json"], live);
    } finally {
      writer.kill();
      await writer.exited;
    }
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ file: target, integrity: "ok" });

    const copy = counts(target);
    expect(copy.users).toBeGreaterThan(0);
    // Every writer transaction is in the copy whole or not at all.
    expect(copy.lonely).toBe(0);
    expect(copy.users).toBeLessThanOrEqual(counts(dbPath(live)).users);

    // Restore: the copy becomes the database of a new data folder, which the CLI reads.
    const restored = await dir({ empty: true });
    copyFileSync(target, dbPath(restored));
    const list = runCli(["users", "list", "--json"], restored);
    expect(list.code).toBe(0);
    expect(list.json().total).toBe(copy.users);
  });

  test("refuses to overwrite an existing file: exit 1, the file untouched", async () => {
    const live = await dir();
    const target = join(await dir(), "existe.db");
    writeFileSync(target, "précieux");
    const r = runCli(["backup", target], live);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Le fichier existe déjà, il n'est pas remplacé : ${target}`);
    expect(readFileSync(target, "utf8")).toBe("précieux");
  });

  test("the copy holds the data and says so in French", async () => {
    const live = await dir();
    await withDb(live, async (db) => await makeUser(db, new Date(), { email: "garde@example.fr" }));
    const target = join(await dir(), "copie.db");
    const r = runCli(["backup", target], live);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Sauvegarde écrite et vérifiée (integrity_check : ok) : ${target}`);
    expect(existsSync(`${target}-wal`)).toBe(false);
    const db = new Database(target, { readonly: true });
    expect(db.query("SELECT email FROM users").all()).toEqual([{ email: "garde@example.fr" }]);
    db.close();
  });
});
