/**
 * Provider calls per hostile minute on /v1 (issue 47): a new trial account
 * loops on a request no synthesis can satisfy (a JSON schema the fake
 * synthesisers never follow), as fast as its answers come back, for
 * BENCH_SECONDS (60). Three loops: the same request again and again; a new
 * question each time (no stored failure to answer it); the same request
 * through the official openai client with its default retries. Counted:
 * requests sent, their statuses, and every call the fake providers received
 * (the models' and moderation's). The app in-process on the system clock,
 * in-memory SQLite, the fakes on 127.0.0.1:
 *   node_modules/.bin/bun test/bench/fair-use.bench.ts
 * Not a test: the counts depend on how fast the box answers.
 */
import OpenAI from "openai";
import { systemClock } from "../../src/lib/clock.ts";
import { startFakeProviders } from "../fakes/ai/index.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SCHEMA = { type: "object", properties: { ville: { type: "string" } }, required: ["ville"], additionalProperties: false };
const format = { type: "json_schema", json_schema: { name: "ville", schema: SCHEMA } };

const fakes = startFakeProviders();
fakes.control.synthesis = () => "Paris est la capitale de la France.";
const providerCalls = () => fakes.control.calls.length + fakes.control.moderations.length;

/** A fresh app and trial account (its own counters), served on 127.0.0.1. */
async function trialAccount() {
  const t = await createTestApp({ env: { ...fakes.env, AI_TIMEOUT_MS: "15000" }, deps: { clock: systemClock } as never });
  const { token } = await makeUser(t.db, new Date());
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => t.app.fetch(req, srv), idleTimeout: 60 });
  const created = await t.call("POST", "/api/auth/api-keys", { token, json: { name: "Bench" } });
  return { url: `http://127.0.0.1:${server.port}`, key: created.body.secret as string, stop: () => server.stop(true) };
}

type Loop = (a: { url: string; key: string }, i: number) => Promise<number>;

const post: (question: (i: number) => string) => Loop = (question) => async (a, i) => {
  const res = await fetch(`${a.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: question(i) }], response_format: format }),
  });
  await res.arrayBuffer();
  return res.status;
};

const throughOpenAi: Loop = async (a) => {
  const client = new OpenAI({ apiKey: a.key, baseURL: `${a.url}/v1` });
  try {
    await client.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "Quelle ville ?" }], response_format: format as never });
    return 200;
  } catch (e) {
    return (e as { status?: number }).status ?? 0;
  }
};

async function measure(name: string, loop: Loop) {
  const account = await trialAccount();
  const before = providerCalls();
  const statuses = new Map<number, number>();
  const end = performance.now() + SECONDS * 1000;
  let sent = 0;
  while (performance.now() < end) {
    const status = await loop(account, sent++);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  account.stop();
  const calls = providerCalls() - before;
  const perMinute = Math.round((calls * 60) / SECONDS);
  const seen = [...statuses].map(([s, n]) => `${n}×${s}`).join(", ");
  console.log(`| ${name} | ${sent} | ${seen} | ${calls} | ${perMinute} |`);
}

console.log(`${SECONDS} s per loop\n`);
console.log("| loop (trial account, unsatisfiable schema) | requests | statuses | provider calls | per minute |");
console.log("|---|---|---|---|---|");
await measure(
  "the same request, raw HTTP",
  post(() => "Quelle est la capitale de la France ?"),
);
await measure(
  "a new question each time, raw HTTP",
  post((i) => `Quelle est la capitale de la France ? (${i})`),
);
await measure("the same request, openai client (2 retries)", throughOpenAi);
await fakes.stop();
process.exit(0);
