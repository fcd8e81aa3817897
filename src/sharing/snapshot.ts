import type { SharedSnapshot } from "../db/schema/index.ts";
import type { MessageRow } from "../chat/chat.queries.ts";
import type { ModelReport } from "../contracts/answer.ts";

type Turn = SharedSnapshot["turns"][number];

/**
 * The copy a shared link shows: each question (a clarification reply joined
 * to the question it completes) with its consolidated answer, the sources
 * the models cited, and, when asked, each model's own answer. Nothing else
 * of the result data goes in: no costs, tokens, latencies or error texts,
 * and nothing of the account. A question without a final answer (refused,
 * still running, waiting for a clarification) is left out.
 */
export function snapshotOf(title: string, rows: MessageRow[], includeModels: boolean): SharedSnapshot {
  const turns: Turn[] = [];
  let questions: string[] = [];
  for (const m of rows) {
    if (m.sender === "user") questions.push(m.content);
    else if (m.messageType === "final_response" && questions.length > 0) {
      turns.push(turnOf(questions.join("\n\n"), m, includeModels));
      questions = [];
    }
  }
  return { title, turns };
}

function turnOf(question: string, answer: MessageRow, includeModels: boolean): Turn {
  const models = reportsOf(answer.resultData);
  return {
    question,
    answer: answer.content,
    sources: [...new Set(models.flatMap((m) => (Array.isArray(m.citations) ? m.citations : [])).filter(isWebAddress))],
    models: includeModels
      ? models.filter((m) => m.status === "answered" && typeof m.answer === "string").map((m) => ({ name: m.name, answer: m.answer! }))
      : null,
  };
}

/** Defensive: a stored answer outlives the code that wrote it. */
function reportsOf(data: Record<string, unknown> | null): ModelReport[] {
  const models = data?.models;
  return Array.isArray(models) ? models.filter((m): m is ModelReport => !!m && typeof m === "object" && typeof m.name === "string") : [];
}

function isWebAddress(value: unknown): value is string {
  return typeof value === "string" && /^https?:\/\/\S+$/i.test(value);
}
