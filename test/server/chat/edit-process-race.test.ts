import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { messages, processingRuns } from "../../../src/db/schema/index.ts";
import type { GroupCommit } from "../../../src/db/group-commit.ts";
import { askReady, type ChatApp, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

/**
 * An edit landing while POST /process is between reading the conversation
 * and claiming its question (issue 48: 4 to 5 times in 48 tries, the run was
 * charged for the question the edit had just hidden, and its answer showed
 * under the edited one). Driven deterministically: the app's queued run
 * writes (the real group commit) hold the first one, the claim, until the
 * edit has landed, on SQLite and PostgreSQL.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const EDITED = "Quelle est la capitale de l'Italie ?";

/** Holds the app's first queued run write (the claim, made after /process read the conversation) until `release()`. */
function holdClaim(t: ChatApp) {
  const writes = t.deps.ai.writes;
  let reached!: () => void;
  let release!: () => void;
  const claimReached = new Promise<void>((r) => {
    reached = r;
  });
  const released = new Promise<void>((r) => {
    release = r;
  });
  let first = true;
  const held: GroupCommit = {
    async run(write) {
      if (first) {
        first = false;
        reached();
        await released;
      }
      return await writes.run(write);
    },
  };
  t.deps.ai.writes = held;
  return { claimReached, release };
}

/** /process started on the question, the edit landed before its claim, then the claim let go: the /process answer. */
async function editDuringClaim(t: ChatApp, id: number) {
  const hold = holdClaim(t);
  const processing = t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
  await hold.claimReached;
  const edited = await t.call("POST", `/api/unisson/conversation/${id}/edit`, { token: t.token, json: { message: EDITED } });
  expect(edited.status).toBe(200);
  hold.release();
  return await processing;
}

describe("an edit landing between /process's read and its claim", () => {
  test("no run is claimed nor charged for the hidden question: one request in all, the page's /process after the edit joins", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t, QUESTION);
    const before = await remaining(t);
    expect((await editDuringClaim(t, id)).status).toBe(200);
    expect((await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } })).status).toBe(200);
    const runs = await t.db
      .select({ question: messages.content, superseded: messages.superseded, charged: processingRuns.charged })
      .from(processingRuns)
      .innerJoin(messages, eq(messages.id, processingRuns.turnMessageId))
      .where(eq(processingRuns.conversationId, id));
    expect(runs).toEqual([{ question: EDITED, superseded: false, charged: true }]);
    expect(await remaining(t)).toEqual({ ...before, plan: before.plan - 1 });
  });

  test("the answer is the edited question's, shown under it: the models were asked the edited text", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t, QUESTION);
    const res = await editDuringClaim(t, id);
    expect(
      fakes()
        .control.callsOf("answer")
        .map((c) => c.messages.at(-1)!.content),
    ).toEqual(Array(6).fill(EDITED));
    const shown = (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.messages;
    expect(shown.map((m: { sender: string }) => m.sender)).toEqual(["user", "assistant"]);
    expect(shown[0].content).toBe(EDITED);
    expect(shown[1].content).toBe(res.body.final_response);
  });
});
