import { afterAll, afterEach, beforeAll } from "bun:test";
import { and, eq, max, sql } from "drizzle-orm";
import type { RunEvent } from "../../../src/chat/live-run.ts";
import { messages, processingRuns, users } from "../../../src/db/schema/index.ts";
import type { NewUser } from "../../../src/users/users.queries.ts";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { createTestApp, type TestEnv } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * One set of fake providers per test file (started on port 0, stopped after),
 * reset between tests; each test builds its own app and database on top.
 */
export function useFakeProviders(): () => FakeProviders {
  let fakes: FakeProviders | undefined;
  beforeAll(() => {
    fakes = startFakeProviders();
  });
  afterEach(() => fakes?.control.reset());
  afterAll(async () => {
    await fakes?.stop();
  });
  return () => fakes!;
}

/**
 * An app pointed at the fakes, and a signed-in user (trial with 5 requests by default). AI_TIMEOUT_MS is 15 s: a
 * model call is abandoned after AI_TIMEOUT_MS/3 without a token, and the fakes, the app and the test share one
 * process, which a loaded machine can leave unscheduled for more than a second (with 3 s, a 1 s stall limit, normal
 * runs failed under load). A test of a timeout sets its own.
 */
export async function chatApp(fakes: FakeProviders, opts: { env?: TestEnv; user?: Partial<NewUser> } = {}) {
  const t = await createTestApp({ env: { ...fakes.env, AI_TIMEOUT_MS: "15000", ...opts.env } });
  const { user, token } = await makeUser(t.db, t.clock.now(), opts.user);
  return { ...t, user, token };
}

export type ChatApp = Awaited<ReturnType<typeof chatApp>>;

/**
 * Until the run just started has asked its models: by then it is claimed, holds its conversation and stores its
 * events. A fixed sleep instead raced the run's start on a loaded machine.
 */
export async function runAskedModels(fakes: FakeProviders): Promise<void> {
  while (fakes.control.callsOf("answer").length === 0) await Bun.sleep(5);
}

/** A question that goes straight to final processing; returns the conversation id. */
export async function askReady(t: ChatApp, message = "Quelle est la capitale de la France ?"): Promise<number> {
  const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message } });
  if (res.status !== 200 || !res.body.requires_final_processing) throw new Error(`chat failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.conversation_id;
}

/** The user's two balances, read through the data layer (either database). */
export async function remaining(t: ChatApp): Promise<{ plan: number; extra: number }> {
  const [row] = await t.db.select({ plan: users.planQueries, extra: users.extraQueries }).from(users).where(eq(users.id, t.user.id));
  return row!;
}

/**
 * What a kill -9 in the middle of final processing leaves: the conversation's
 * last turn claimed, charged (one request taken from the plan) and still
 * "running"; with the `server` that held it and the `events` it had stored.
 */
export async function leftRunning(t: ChatApp, conversationId: number, held: { server?: string; events?: RunEvent[] } = {}) {
  const [turn] = await t.db
    .select({ id: max(messages.id) })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.sender, "user")));
  await t.db
    .update(users)
    .set({ planQueries: sql`${users.planQueries} - 1` })
    .where(eq(users.id, t.user.id));
  const [run] = await t.db
    .insert(processingRuns)
    .values({
      conversationId,
      turnMessageId: turn!.id!,
      userId: t.user.id,
      status: "running",
      charged: true,
      chargedFrom: "plan",
      createdAt: new Date(0),
      ...held,
    })
    .returning();
  return run!;
}
