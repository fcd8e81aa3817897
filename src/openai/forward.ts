import { frChat } from "../i18n/fr-chat.ts";
import { finishedPrefix } from "../chat/synthesis.ts";
import type { RunEvent } from "../chat/live-run.ts";
import { shownWithin } from "../chat/answer-length.ts";
import type { LengthLimit } from "../chat/answer-length.ts";

/** Sent when a synthesiser fails after some of its text was sent: the client cannot take text back. */
export function restartText(model: string | null, reason: string | null): string {
  const who = model ? frChat.apiRestart.interrupted(model, reason) : frChat.apiRestart.resumed;
  return `\n\n---\n\n*${frChat.apiRestart.follows(who)}*\n\n`;
}

/**
 * Turns a run's synthesis events into the text of a streamed /v1 completion
 * whose deltas add up to the stored answer. While a synthesiser writes, only
 * what finishSynthesis can no longer change is sent (finishedPrefix: whole
 * lines, the notice first, "Réponse X" named, a trailing Sources section held);
 * at the end, exactly the rest of the stored answer.
 *
 * A synthesiser that fails after some of its text was sent cannot be taken
 * back (the protocol has no reset): the next text opens with restartText and
 * the stored answer follows whole, so the stream is the abandoned beginning,
 * that line, then the stored answer (`restarted`). Nothing is sent for a
 * failed synthesiser that had not finished a line. After such a failure
 * nothing more is sent live (issue 43): the next synthesisers may fail too,
 * and a stream must carry one restart line at most, and only with the answer
 * it announces; a run that ends without one sends no restart line at all.
 */
export class SynthesisForwarder {
  /** Every character sent to the client. */
  #sent = "";
  /** Where the current synthesiser's text begins in #sent (after an abandoned text and its restart line). */
  #base = 0;
  #written = "";
  #labels: Record<string, string> = {};
  #notice: string | null = null;
  /** The restart line owed before the next text. */
  #owed: string | null = null;
  restarted = false;

  /** `live: false` sends nothing before the end (a JSON answer); `limit` holds back what a cut may drop (answer-length.ts). */
  constructor(
    private readonly send: (text: string) => void,
    private readonly opts: { live?: boolean; limit?: LengthLimit } = {},
  ) {}

  on(e: RunEvent): void {
    if (this.opts.live === false) return;
    const d = e.data;
    if (e.type === "synthesis_started") {
      if (this.#mine() && this.#owed === null) this.#owed = restartText(null, null);
      this.#written = "";
      this.#labels = (d.labels as Record<string, string> | undefined) ?? {};
      this.#notice = (d.notice as string | null | undefined) ?? null;
    } else if (e.type === "synthesis_delta") {
      this.#written += String(d.text ?? "");
      // A restart is owed: the rest waits for a synthesis that passed its checks (end).
      if (this.#owed !== null) return;
      const prefix = finishedPrefix(this.#written, this.#labels, this.#notice);
      this.#offer(this.opts.limit ? shownWithin(prefix, this.opts.limit) : prefix);
    } else if (e.type === "synthesis_failed" && this.#mine() && this.#owed === null) {
      // Named after the synthesiser whose text the client has: the later ones sent nothing.
      this.#owed = restartText(String(d.model ?? ""), String(d.reason ?? ""));
    }
  }

  /** The run is over: the rest of the stored answer. */
  end(stored: string): void {
    this.#offer(stored);
  }

  /** The current synthesiser's text sent so far. */
  #mine(): string {
    return this.#sent.slice(this.#base);
  }

  /** `target` is what the current synthesiser's text is known to begin with: send what is new of it. */
  #offer(target: string): void {
    if (!target) return;
    // Never expected (finishedPrefix is a prefix of the final text): the same way out as a handover.
    if (this.#owed === null && !target.startsWith(this.#mine())) this.#owed = restartText(null, null);
    if (this.#owed !== null) {
      this.#emit(this.#owed);
      this.#owed = null;
      this.#base = this.#sent.length;
      this.restarted = true;
    }
    const mine = this.#mine();
    if (target.length > mine.length) this.#emit(target.slice(mine.length));
  }

  #emit(text: string): void {
    this.#sent += text;
    this.send(text);
  }
}
