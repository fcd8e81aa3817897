import type { Deps } from "../deps.ts";
import type { AiCallLog } from "./ai-calls.queries.ts";
import { callModel } from "./model-call.ts";
import type { ConfirmRefusal } from "./output-checks.ts";
import type { ModelDef } from "./registry.ts";

/**
 * The confirmation stage of the refusal judgment (docs/DECISIONS.md,
 * « Refusal judgment »): asked only for the texts the local pre-filter finds
 * ambiguous (src/ai/refusal.ts), of the council's clarifier (the cheap, fast
 * model the clarification pre-pass already uses), through the same SDK path,
 * with a short structured prompt and its own deadline. Fail safe: a timeout,
 * an error, an unreadable verdict all mean « keep the answer ».
 */
export const REFUSAL_CHECK_SYSTEM = [
  "Tu contrôles le texte qu'un assistant a écrit en réponse à un utilisateur.",
  'Réponds uniquement par un objet JSON : {"refus": true} si le texte refuse de répondre et n\'apporte aucun contenu utile sur le sujet,',
  '{"refus": false} sinon. Un texte qui répond après une réserve, ou qui cite, traduit ou met en scène un refus, n\'est pas un refus.',
].join("\n");
/** The verdict is one short JSON object. */
const REFUSAL_CHECK_MAX_TOKENS = 20;
/** The longest a confirmation may delay an answer; less when the answer's own deadline is nearer. */
export const REFUSAL_CHECK_TIMEOUT_MS = 3_000;
/** Below this, a confirmation cannot finish: the answer is kept unasked. */
const REFUSAL_CHECK_MIN_MS = 250;
/** The text sent is cut here: a refusal shows itself in its first pages. */
const REFUSAL_CHECK_MAX_CHARS = 4_000;

/** The verdict in the judge's text, or null when it has none. */
export function parseRefusalVerdict(text: string): boolean | null {
  const m = /"refus"\s*:\s*(true|false)/.exec(text);
  return m ? m[1] === "true" : null;
}

/** The run's confirmation, by `judge` (undefined when the run has no model to ask: every ambiguous text is kept). */
export function refusalConfirmer(
  deps: Deps,
  judge: ModelDef | undefined,
  ctx: { userId: number; conversationId: number; ledger: AiCallLog[]; unwritten: AiCallLog[] },
): ConfirmRefusal | undefined {
  if (!judge) return undefined;
  return async (text, within) => {
    const timeoutMs = Math.min(REFUSAL_CHECK_TIMEOUT_MS, within.timeoutMs);
    if (timeoutMs < REFUSAL_CHECK_MIN_MS) return null;
    const outcome = await callModel(
      deps,
      judge,
      {
        system: REFUSAL_CHECK_SYSTEM,
        messages: [{ role: "user", content: `<<<TEXTE\n${text.slice(0, REFUSAL_CHECK_MAX_CHARS)}\nTEXTE>>>` }],
        maxTokens: REFUSAL_CHECK_MAX_TOKENS,
      },
      { purpose: "refusal_check", timeoutMs, signal: within.signal, ...ctx },
    );
    if (!outcome.ok) return null;
    const verdict = parseRefusalVerdict(outcome.text);
    if (verdict === null) deps.log.warn("refusal check verdict unreadable", { model: judge.name, chars: outcome.text.length });
    return verdict;
  };
}
