import type { ChatTurn } from "../ai/types.ts";
import type { MessageRow } from "./chat.queries.ts";

/** A turn ends with a final answer, a moderation refusal or a stopped run; everything after belongs to the current one. */
const TURN_ENDS = new Set(["final_response", "content_moderation", "stopped_response"]);
const CLARIFICATIONS = new Set(["clarification", "mono_clarification"]);

/** Earlier turns given to the models as context: the last few, each trimmed. */
const HISTORY_TURNS = 3;
const HISTORY_CHARS = 1_500;

export type Turn = {
  /** Messages of the current turn, oldest first. */
  messages: MessageRow[];
  /** Everything before it. */
  earlier: MessageRow[];
  last: MessageRow | undefined;
  hadClarification: boolean;
};

/**
 * `closed` holds user messages whose final processing failed and that are
 * not being retried: a new message after one starts a new turn instead of
 * being read as a precision of the failed question.
 */
export function currentTurn(all: readonly MessageRow[], closed: ReadonlySet<number> = new Set()): Turn {
  let start = 0;
  all.forEach((m, i) => {
    if (m.sender === "assistant" && m.messageType && TURN_ENDS.has(m.messageType)) start = i + 1;
    if (m.sender === "user" && closed.has(m.id)) start = i + 1;
  });
  const messages = all.slice(start);
  return {
    messages,
    earlier: all.slice(0, start),
    last: all.at(-1),
    hadClarification: messages.some((m) => m.sender === "assistant" && m.messageType !== null && CLARIFICATIONS.has(m.messageType)),
  };
}

export function awaitsClarificationReply(turn: Turn): boolean {
  return turn.last?.sender === "assistant" && turn.last.messageType !== null && CLARIFICATIONS.has(turn.last.messageType);
}

/** The whole question of a turn: what the user asked, then the questions asked back and the user's replies. */
export function composeQuestion(turn: ReadonlyArray<Pick<MessageRow, "sender" | "content">>): string {
  const users = turn.filter((m) => m.sender === "user");
  if (users.length <= 1) return users[0]?.content ?? "";
  const lines = [`Question initiale : ${users[0]!.content}`];
  for (const m of turn.slice(turn.indexOf(users[0]!) + 1)) {
    if (m.sender === "assistant") lines.push(`Question posée à l'utilisateur : ${m.content}`);
    else lines.push(`Précision de l'utilisateur : ${m.content}`);
  }
  return lines.join("\n\n");
}

function trim(text: string): string {
  return text.length > HISTORY_CHARS ? `${text.slice(0, HISTORY_CHARS)}…` : text;
}

/** Earlier answered turns as a chat history (question, consolidated answer), newest kept. */
export function historyTurns(earlier: readonly MessageRow[], closed: ReadonlySet<number> = new Set()): ChatTurn[] {
  const turns: ChatTurn[][] = [];
  let current: MessageRow[] = [];
  for (const m of earlier) {
    if (m.sender === "user" && closed.has(m.id)) {
      current = [];
      continue;
    }
    current.push(m);
    if (m.sender === "assistant" && m.messageType === "final_response") {
      turns.push([
        { role: "user", content: trim(composeQuestion(current)) },
        { role: "assistant", content: trim(m.content) },
      ]);
      current = [];
    } else if (m.messageType === "content_moderation" || m.messageType === "stopped_response") {
      current = [];
    }
  }
  return turns.slice(-HISTORY_TURNS).flat();
}

const CONTEXT_CHARS = 600;

/**
 * The conversation so far in a few lines, for the clarifier and the
 * synthesiser: the last turns, each question and answer cut short, the
 * degradation notice and the sources left out, and the model names removed
 * (the synthesiser must not learn who said what).
 */
export function condensedHistory(earlier: readonly MessageRow[], closed: ReadonlySet<number> = new Set(), modelNames: readonly string[] = []): string {
  return condenseTurns(historyTurns(earlier, closed), modelNames);
}

/** The same, from turns already paired (the page's stored turns, or an API client's messages). */
export function condenseTurns(turns: readonly ChatTurn[], modelNames: readonly string[] = []): string {
  const lines: string[] = [];
  for (let i = 0; i + 1 < turns.length; i += 2) {
    let answer = turns[i + 1]!.content.replace(/^>.*\n+/gm, "").replace(/\n## Sources[\s\S]*$/, "");
    for (const name of modelNames) answer = answer.replaceAll(` (${name})`, "").replaceAll(name, "un modèle");
    const cut = (t: string) => (t.length > CONTEXT_CHARS ? `${t.slice(0, CONTEXT_CHARS)}…` : t);
    lines.push(`Question : ${cut(turns[i]!.content)}`, `Réponse donnée : ${cut(answer.trim())}`);
  }
  return lines.join("\n");
}
