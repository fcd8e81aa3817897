/**
 * The minimal reference of the HTTP benchmarks: bare Hono on Bun.serve on the
 * product's database file.
 *  - GET /me does what any authenticated endpoint must, the way the product
 *    does it (src/auth/require-user.ts, src/auth/sessions.ts): the bearer
 *    read by the same pattern, hashed with SHA-256 (hex), the live session
 *    found by its hash (unique index) and its user read in one prepared
 *    bun:sqlite statement, the user as JSON;
 *  - GET /me-two-reads is the same with the session and the user read by two
 *    statements, as the product did before issue 36;
 *  - GET /hello is the bare framework: no middleware, no database, a word;
 *  - GET /health is what the harness polls before it starts.
 * Usage: bun test/bench/reference-server.ts <database file>; prints its URL.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { Hono } from "hono";

const db = new Database(process.argv[2]!, { strict: true });
db.run("PRAGMA busy_timeout = 5000");
const LIVE = "token_hash = ?1 AND revoked_at IS NULL AND expires_at > ?2";
const COLUMNS = "id, first_name, last_name, email, subscription_type";
const userOfSession = db.prepare(`SELECT ${COLUMNS} FROM users WHERE id = (SELECT user_id FROM sessions WHERE ${LIVE})`);
const session = db.prepare<{ user_id: number }, [string, number]>(`SELECT user_id FROM sessions WHERE ${LIVE}`);
const user = db.prepare(`SELECT ${COLUMNS} FROM users WHERE id = ?`);

/** The bearer's SHA-256 (hex), as src/auth/require-user.ts reads it and src/lib/tokens.ts hashes it. */
const tokenHash = (header: string | undefined) => {
  const token = header?.match(/^Bearer\s+(\S{16,512})$/i)?.[1];
  return token ? createHash("sha256").update(token).digest("hex") : undefined;
};

const app = new Hono()
  .get("/hello", (c) => c.text("hello"))
  .get("/health", (c) => c.json({ status: "ok" }))
  .get("/me", (c) => {
    const hash = tokenHash(c.req.header("authorization"));
    const row = hash ? userOfSession.get(hash, Date.now()) : null;
    return row ? c.json(row) : c.json({ detail: "401" }, 401);
  })
  .get("/me-two-reads", (c) => {
    const hash = tokenHash(c.req.header("authorization"));
    const found = hash ? session.get(hash, Date.now()) : null;
    const row = found ? user.get(found.user_id) : null;
    return row ? c.json(row) : c.json({ detail: "401" }, 401);
  });

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
console.log(`http://127.0.0.1:${server.port}`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
