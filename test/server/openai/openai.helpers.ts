import { afterEach } from "bun:test";
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import type { Db } from "../../../src/db/client.ts";
import { users } from "../../../src/db/schema/index.ts";
import type { NewUser } from "../../../src/users/users.queries.ts";
import type { FakeProviders } from "../../fakes/ai/index.ts";
import type { TestEnv } from "../../helpers/app.ts";
import { chatApp } from "../chat/chat.helpers.ts";

const servers: Array<{ stop(force?: boolean): unknown }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

/**
 * A chat app served over real HTTP on 127.0.0.1 (port 0), a signed-in user,
 * one personal API key created through the API, and the official openai
 * client pointed at it (no retries: each test sees the first answer).
 */
export async function apiApp(fakes: FakeProviders, opts: { env?: TestEnv; user?: Partial<NewUser> } = {}) {
  // 10 s per model (stalls after 3.3 s): the first completion of a process loads the providers' SDK code, slow on a busy machine.
  const t = await chatApp(fakes, { ...opts, env: { AI_TIMEOUT_MS: "10000", ...opts.env } });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => t.app.fetch(req, srv), idleTimeout: 60 });
  servers.push(server);
  const url = `http://127.0.0.1:${server.port}`;
  const created = await t.call("POST", "/api/auth/api-keys", { token: t.token, json: { name: "Tests" } });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const key: string = created.body.secret;
  const client = (apiKey = key) => new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0, timeout: 20_000 });
  return { ...t, url, key, keyId: created.body.id as number, openai: client(), client };
}

/** The user's requests left (plan + extra). */
export async function balance(t: { db: Db; user: { id: number } }): Promise<number> {
  const [row] = await t.db.select({ plan: users.planQueries, extra: users.extraQueries }).from(users).where(eq(users.id, t.user.id));
  return row!.plan + row!.extra;
}

/** The API error a request ends with (the official client's class); fails the test if it succeeds. */
export async function apiError(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OpenAI.APIError) return e;
    throw e;
  }
  throw new Error("expected an API error");
}

/** The last message of each of the user's conversations (their answers), newest first; every one asked through the API. */
export async function storedAnswers(t: Awaited<ReturnType<typeof apiApp>>): Promise<string[]> {
  const history = await t.call("GET", "/api/unisson/history", { token: t.token });
  const out: string[] = [];
  for (const c of history.body.conversations as Array<{ id: number; source: string }>) {
    if (c.source !== "api") throw new Error(`conversation ${c.id} not from the API`);
    const conv = await t.call("GET", `/api/unisson/conversation/${c.id}`, { token: t.token });
    out.push(conv.body.messages.at(-1).content);
  }
  return out;
}
