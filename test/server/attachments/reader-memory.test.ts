import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { png, tinyParagraphsDocx } from "../../helpers/attachment-files.ts";
import { ensureBinary, freePort, tempDir } from "../../helpers/binary.ts";
import { TEST_PASSWORD_HASH_ENV } from "../../helpers/password-cost.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";

const GiB = 1024 * 1024 * 1024;
/** The server's own address-space limit, set by this test with prlimit: room for its engine (2 GiB reserved) and about 1.5 GiB of use. */
const SERVER_LIMIT = 4 * GiB;

const dir = tempDir("unisson-reader-memory-");
let server: ReturnType<typeof Bun.spawn> | undefined;
afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  dir.cleanup();
});

describe("the compiled server under a memory limit of its own (RLIMIT_AS, set here with prlimit)", () => {
  test("eight 200 MB-of-XML DOCX in a row are refused for their memory, then a photo is read: the same server, still answering", async () => {
    const db = openDb(`${dir.path}/unisson.db`);
    await runMigrations(db);
    const { token } = await makeUser(db, new Date(), { email: "essai@example.fr" });
    db.$client.close();
    const port = freePort();
    server = Bun.spawn(["prlimit", `--as=${SERVER_LIMIT}`, "--", ensureBinary(), "serve"], {
      cwd: dir.path,
      env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dir.path, LOG_LEVEL: "warn", ...TEST_PASSWORD_HASH_ENV },
      stdout: "ignore",
      stderr: "ignore",
    });
    const url = `http://127.0.0.1:${port}`;
    for (
      let i = 0;
      i < 400 &&
      !(await fetch(`${url}/api/health`)
        .then((r) => r.ok)
        .catch(() => false));
      i++
    )
      await Bun.sleep(50);
    const send = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
      const res = await fetch(`${url}/api/attachments`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
      return { status: res.status, body: (await res.json()) as { detail: string } };
    };

    // The report's DOCX: about 600 KB sent, 200 MB of one-letter paragraphs.
    const bomb = await tinyParagraphsDocx(200);
    for (let i = 1; i <= 8; i++) {
      const res = await send(bomb, `bombe-${i}.docx`);
      expect(res.status).toBe(415);
      expect(res.body.detail).toBe(`« bombe-${i}.docx » n'est pas accepté : sa lecture demande trop de mémoire.`);
    }
    expect((await send(await png(4000, 3000), "photo.png")).status).toBe(201);
    expect(server.exitCode).toBeNull();
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // The server's own memory stayed far below its limit: the readers' allocations were never its own.
    const rss = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1]) * 1024;
    expect(rss).toBeLessThan(SERVER_LIMIT - 2 * GiB);
  }, 180_000);
});
