/**
 * First text a user can read: `bun test/bench/first-text.bench.ts`.
 *
 * Six fake models whose first token comes 600 ms after they are asked and
 * whose answers take 5, 10, 15, 25, 35 and 45 s to write; the synthesis then
 * takes 1 s to start and 4 s to write; AI_SOFT_DEADLINE_MS at its default
 * (20 s). Real time, no scaling: the figure is the wait a person would see.
 * Measured, over BENCH_RUNS runs (default 3), from asking:
 *  - in the event stream of POST /process (SSE, in-process server on a port):
 *    the first model text (`model_delta`), the first synthesis text
 *    (`synthesis_delta`), the first of either, and the complete answer;
 *  - the same first model text from POST /chat with `start_run` (the run
 *    starts while the clarifier decides; its stream then joined by /process),
 *    when the tree has it (issue 34's last target);
 *  - on screen, in headless Chromium (the compiled executable, desktop width):
 *    pressing Enter in the question box to the first text in the live panel
 *    (`.live-run .markdown`: a model's text or the synthesis), and to the answer;
 *    also from the page's opening of the run's stream (POST /process, or GET
 *    /conversation/{id}/events for a run POST /chat started; asking is POST
 *    /chat first: its clarification pre-pass is a model call with the same
 *    600 ms first token).
 * Runs on any tree that has the fakes and the e2e harness (used on main
 * before issue 34 and after it: docs/BENCHMARKS.md). Not a test: the numbers
 * depend on the machine.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/lib/clock.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { readSse } from "../helpers/sse.ts";
import { DESKTOP, ensureChromium, registerThroughUi, startE2E } from "../e2e/harness.ts";
import { fmt, median, spawnFakeProviders, UNMETERED } from "./bench.lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FIRST_TOKEN_MS = 600;
const ANSWER_S = { claudeHaiku: 5, gpt4: 10, geminiPro: 15, mistralLarge: 25, sonarPro: 35, claudeOpus: 45 } as const;
const ANSWER = Array.from({ length: 24 }, (_, i) => `Point ${i + 1} : Paris est la capitale de la France.`).join(" ");
const scripts = Object.fromEntries(
  Object.entries(ANSWER_S).map(([m, s]) => [
    m,
    { latencyMs: FIRST_TOKEN_MS, durationMs: s * 1000 - FIRST_TOKEN_MS, answer: ANSWER, synthesisLatencyMs: 1000, synthesisDurationMs: 4000 },
  ]),
);
const QUESTION = "Question de mesure : quelle est la capitale de la France ?";
const s = (ms: number) => `${fmt(ms / 1000, 2)} s`;

async function streamRuns(): Promise<void> {
  const { env: fakeEnv, proc } = await spawnFakeProviders(scripts);
  const dir = mkdtempSync(join(tmpdir(), "unisson-first-text-"));
  try {
    const t = await createTestApp({
      env: { ...fakeEnv, ...UNMETERED, DATABASE_PATH: join(dir, "bench.db"), LOG_LEVEL: "error", AI_TIMEOUT_MS: "60000", AI_BUDGET_MS: "120000" },
      deps: { clock: systemClock },
    });
    const srv = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch, idleTimeout: 0 });
    const { token } = await makeUser(t.db, systemClock.now(), { subscriptionType: "pro", planQueries: 100_000 });
    const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const base = `http://127.0.0.1:${srv.port}/api/unisson`;
    const rows: Array<{ model: number; synthesis: number; first: number; answer: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      const chat = await (await fetch(`${base}/chat`, { method: "POST", headers, body: JSON.stringify({ message: `${QUESTION} (${i})` }) })).json();
      const asked = performance.now();
      const res = await fetch(`${base}/process`, {
        method: "POST",
        headers: { ...headers, accept: "text/event-stream" },
        body: JSON.stringify({ conversation_id: (chat as { conversation_id: number }).conversation_id }),
      });
      let model = Number.NaN;
      let synthesis = Number.NaN;
      await readSse(res, {
        stopAfter: (e) => {
          const at = performance.now() - asked;
          if (e.event === "model_delta" && Number.isNaN(model)) model = at;
          if (e.event === "synthesis_delta" && Number.isNaN(synthesis)) synthesis = at;
          return false;
        },
      });
      const answer = performance.now() - asked;
      rows.push({ model, synthesis, first: Math.min(...[model, synthesis].filter((x) => !Number.isNaN(x))), answer });
      console.log(`  flux, essai ${i + 1} : 1er texte d'un modèle ${s(model)}, 1er texte de synthèse ${s(synthesis)}, réponse complète ${s(answer)}`);
    }
    const med = (k: keyof (typeof rows)[number]) => s(median(rows.map((r) => r[k])));
    console.log(
      `flux SSE (médiane de ${RUNS}) : premier texte lisible ${med("first")} (modèle ${med("model")}, synthèse ${med("synthesis")}), réponse complète ${med("answer")}`,
    );
    const fromChat: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const asked = performance.now();
      const res = await fetch(`${base}/chat`, { method: "POST", headers, body: JSON.stringify({ message: `${QUESTION} (start_run ${i})`, start_run: true }) });
      const chat = (await res.json()) as { conversation_id: number; run_started?: boolean };
      if (!chat.run_started) {
        console.log("  POST /chat avec start_run : non pris en charge par cet arbre (pas de run_started)");
        break;
      }
      const stream = await fetch(`${base}/process`, {
        method: "POST",
        headers: { ...headers, accept: "text/event-stream" },
        body: JSON.stringify({ conversation_id: chat.conversation_id }),
      });
      let model = Number.NaN;
      await readSse(stream, {
        stopAfter: (e) => {
          if (e.event === "model_delta" && Number.isNaN(model)) model = performance.now() - asked;
          return false;
        },
      });
      fromChat.push(model);
      console.log(`  flux depuis POST /chat (start_run), essai ${i + 1} : 1er texte d'un modèle ${s(model)}`);
    }
    if (fromChat.length > 0)
      console.log(`flux SSE depuis POST /chat avec start_run (médiane de ${fromChat.length}) : 1er texte d'un modèle ${s(median(fromChat))}`);
    srv.stop(true);
  } finally {
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function screenRuns(): Promise<void> {
  const skip = ensureChromium();
  if (skip) {
    console.log(`écran : non mesuré (${skip})`);
    return;
  }
  const e = await startE2E({ AI_TIMEOUT_MS: "60000", AI_BUDGET_MS: "120000" });
  try {
    for (const [model, script] of Object.entries(scripts)) e.fakes.control.set(model as never, script);
    const firsts: number[] = [];
    const fromRun: number[] = [];
    const answers: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { page, context } = await e.newPage(DESKTOP);
      await registerThroughUi(page, { first: "Mesure", last: "Banc", email: `banc.premier.texte.${i}@example.fr`, password: "Nuage-Bleu-42" });
      await page.getByText("6/6 IA disponibles").first().waitFor();
      const box = page.getByRole("textbox", { name: "Votre question" });
      await box.fill(QUESTION);
      // Asking is two requests: POST /chat (moderation, the clarification pre-pass: a model call too), then the run's stream
      // (POST /process, or GET .../events when /chat started the run).
      let runAt = Number.NaN;
      page.on("request", (r) => {
        if (/\/api\/unisson\/(process|conversation\/\d+\/events)$/.test(r.url()) && Number.isNaN(runAt)) runAt = performance.now();
      });
      const asked = performance.now();
      await box.press("Enter");
      await page.locator(".live-run .markdown").first().waitFor({ timeout: 60_000 });
      const first = performance.now() - asked;
      fromRun.push(performance.now() - runAt);
      await page.getByText("Analyse terminée").waitFor({ timeout: 90_000 });
      const answer = performance.now() - asked;
      firsts.push(first);
      answers.push(answer);
      console.log(`  écran, essai ${i + 1} : premier texte ${s(first)} (${s(fromRun.at(-1)!)} après l'ouverture du flux du traitement), réponse ${s(answer)}`);
      await context.close();
    }
    console.log(
      `écran, Chromium 1280 px (médiane de ${RUNS}) : premier texte ${s(median(firsts))} après Entrée, ${s(median(fromRun))} après l'ouverture du flux du traitement, réponse ${s(median(answers))}`,
    );
    await askedBack(e);
  } finally {
    await e.stop();
  }
}

/**
 * What a question the clarifier asks back costs the operator now that the
 * run starts with it (POST /chat with start_run): the run's calls, aborted
 * when the precision is asked, as the cost ledger (ai_calls) records them.
 */
async function askedBack(e: Awaited<ReturnType<typeof startE2E>>): Promise<void> {
  e.fakes.control.clarify(["Pour quel usage : personnel ou professionnel ?"]);
  // The clarifier's verdict in one piece (its script spreads an answer over 4.4 s, past the pre-pass's 5 s limit with the latency).
  e.fakes.control.set("claudeHaiku", { durationMs: 0 });
  const { page, context } = await e.newPage(DESKTOP);
  await registerThroughUi(page, { first: "Mesure", last: "Précision", email: "banc.premier.texte.precision@example.fr", password: "Nuage-Bleu-42" });
  await page.getByText("6/6 IA disponibles").first().waitFor();
  const box = page.getByRole("textbox", { name: "Votre question" });
  await box.fill(QUESTION);
  const asked = performance.now();
  await box.press("Enter");
  await page.getByText("Pour quel usage : personnel ou professionnel ?").waitFor({ timeout: 30_000 });
  const shown = performance.now() - asked;
  await context.close();
  e.fakes.control.clarify([]);
  const db = new Database(join(e.dataDir, "unisson.db"), { readonly: true });
  try {
    const row = db
      .query(
        `SELECT count(*) AS calls, sum(tokens_in IS NULL) AS unknown, coalesce(sum(tokens_in), 0) AS tin, coalesce(sum(tokens_out), 0) AS tout, coalesce(sum(cost_eur), 0) AS cost
         FROM ai_calls WHERE purpose = 'answer' AND outcome = 'cancelled' AND conversation_id = (SELECT max(id) FROM conversations)`,
      )
      .get() as { calls: number; unknown: number; tin: number; tout: number; cost: number };
    console.log(
      `question reposée (précision demandée) : question de précision à l'écran ${s(shown)} après Entrée ; appels interrompus ${row.calls} (sans usage rapporté : ${row.unknown}), ${row.tin} jetons d'entrée et ${row.tout} de sortie relevés, ${fmt(row.cost, 6)} € enregistrés`,
    );
  } finally {
    db.close();
  }
}

await streamRuns();
await screenRuns();
process.exit(0);
