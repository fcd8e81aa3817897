import { useCallback, useEffect, useRef, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { ApiError, api, unwrap } from "../../lib/api.ts";
import { blockFor, type Notice } from "./chat-blocks.ts";
import type { ChatMessage } from "../../lib/api-types.ts";
import { EMPTY, type LiveState, reduce } from "./live/live-state.ts";
import { followRun } from "./live/run-stream.ts";
import { rememberedRun, rememberRun } from "./live/remember-run.ts";
import { useProgress } from "./use-progress.ts";
import { useSteer } from "./steer/use-steer.ts";
import { useAskStop } from "./steer/use-ask-stop.ts";
import { stopRun } from "./steer/steer.api.ts";
import type { MessageAttachment } from "./attachments/attachment-rules.ts";

const e = fr.chat.errors;

/** Appends the server's messages, replacing the optimistic copy of the user's own (negative id). */
function merge(prev: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const ids = new Set(incoming.map((m) => m.id));
  return [...prev.filter((m) => m.id >= 0 && !ids.has(m.id)), ...incoming];
}

/** The spec's note on a refusal ("useful and constructive"), unless the server's detail says it already (ours does). */
const moderationNote = (detail: string) => (/utiles et constructives/i.test(detail) ? undefined : e.moderationNote);

/** docs/PRODUCT.md#errors, chat send errors. */
function sendNotice(err: unknown): Notice {
  if (err instanceof ApiError) {
    if (err.status === 400 && err.detail) return { kind: "moderation", title: e.moderationTitle, text: err.detail, note: moderationNote(err.detail) };
    if (err.status === 503 && err.detail) return { kind: "system", title: e.systemTitle, text: err.detail };
    if (err.status === 402) return { kind: "blocked", title: e.blockedTitle, text: e.limit, pricing: true };
    // An attached file gone meanwhile (an upload is kept 24 h): the server's words say which.
    if (err.status === 404 && err.detail) return { kind: "error", text: err.detail };
  }
  return { kind: "error", text: e.send };
}

export type ChatDeps = {
  user: PublicUser;
  available: number;
  statusLoaded: boolean;
  /** Opens the pricing overlay (blocked states, 402). */
  onNeedPricing(): void;
  /** After each final answer: the quota changed (docs/PRODUCT.md#session). */
  onAnswered(): void;
};

/** One conversation on the query tab: send, clarify, final processing with its progress, load from history. */
export function useChat(deps: ChatDeps) {
  const [conversationId, setConversationId] = useState<number | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const { progress, finish, cancel } = useProgress();
  // A ref, not state: two quick Enter presses must not both pass the "already running" check.
  const running = useRef(false);
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const generation = useRef(0);

  const [live, setLive] = useState<LiveState | null>(null);
  const stream = useRef<AbortController | null>(null);

  /**
   * Final processing as a live run: starts it (`start`, POST /process),
   * follows the run POST /chat started (`join`: the live panel at once), or
   * re-attaches to one that may be going on (`resume`: a reload, a
   * conversation opened from the history); shows each event as it comes, and
   * ends with the stored answer or the failure and its "Réessayer". The
   * conversation id is kept for the tab so a reload resumes.
   */
  const runFinal = useCallback(
    async (id: number, gen: number, how: "start" | "join" | "resume" = "start") => {
      stream.current?.abort();
      const ctl = new AbortController();
      stream.current = ctl;
      rememberRun(id);
      setLive(how === "resume" ? null : EMPTY);
      let final: ChatMessage | null = null;
      // « Arrêter »: the run ends with its stopped message (what the models wrote), shown in the conversation.
      let stopped: ChatMessage | null = null;
      try {
        await followRun(id, {
          start: how === "start",
          signal: ctl.signal,
          onEvent: (ev) => {
            if (gen !== generation.current) return;
            if (ev.type === "failed" && ev.data.idle) return;
            if (ev.type === "final") final = ev.data.message;
            if (ev.type === "failed" && ev.data.message) stopped = ev.data.message as ChatMessage;
            setLive((s) => reduce(s ?? EMPTY, ev));
          },
        });
        if (gen !== generation.current) return;
        rememberRun(null);
        if (final) {
          const message: ChatMessage = final;
          setMessages((m) => merge(m, [message]));
          setLive(null);
          finish();
        } else if (stopped) {
          const message: ChatMessage = stopped;
          setMessages((m) => merge(m, [message]));
          setLive(null);
          cancel();
        }
        depsRef.current.onAnswered(); // the request was spent or given back: show the true count
      } catch (err) {
        if (gen !== generation.current || ctl.signal.aborted) return;
        rememberRun(null);
        setLive(null);
        cancel();
        setNotice(
          err instanceof ApiError && err.status === 503 && err.detail
            ? { kind: "system", title: e.systemTitle, text: err.detail }
            : err instanceof ApiError && err.status === 409 && err.detail
              ? { kind: "error", text: err.detail }
              : { kind: "error", text: e.process },
        );
        depsRef.current.onAnswered();
      }
    },
    [finish, cancel],
  );

  const asking = useAskStop();
  const { begin: beginAsk, end: endAsk } = asking;
  const steer = useSteer({ conversationId, running, generation, setBusy, setNotice, setMessages, runFinal, noticeOf: sendNotice });
  const { setVersions } = steer;

  /** "Réessayer" after a failed run: the same turn again (POST /process), never a merged question. */
  const retry = useCallback(async () => {
    if (conversationId === null || running.current) return;
    running.current = true;
    setBusy(true);
    setNotice(null);
    try {
      await runFinal(conversationId, generation.current);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, [conversationId, runFinal]);

  /** Returns false when the message was not taken (blank, busy, blocked, failed), so the box keeps the text. */
  const send = useCallback(
    async (text: string, attachments: MessageAttachment[] = [], webSearch = false): Promise<boolean> => {
      const message = text.trim();
      if (!message || running.current) return false;
      const d = depsRef.current;
      const block = blockFor(d.user, d.available, d.statusLoaded);
      if (block) {
        setNotice(block);
        if (block.pricing) d.onNeedPricing();
        return false;
      }
      running.current = true;
      setBusy(true);
      setNotice(null);
      const gen = generation.current;
      // Its files shown at once, from what the uploads returned (the server's copy replaces it).
      const temp: ChatMessage = {
        id: -Date.now(),
        content: message,
        sender: "user",
        message_type: null,
        timestamp: new Date().toISOString(),
        result_data: null,
        attachments,
      };
      setMessages((m) => [...m, temp]);
      try {
        const files = attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {};
        // start_run: the models start while the clarifier decides; their first words show within a second (issue 34).
        // ask_id: « Arrêter » is offered from now on, before /chat names the run (use-ask-stop.ts).
        const ask = beginAsk();
        const asked = { message, start_run: true, ask_id: ask.id, ...files, ...(webSearch ? { web_search: true } : {}) };
        const body = conversationId === null ? asked : { conversation_id: conversationId, ...asked };
        const r = await unwrap(api.unisson.chat.$post({ json: body })).finally(endAsk);
        if (gen !== generation.current) return true;
        setConversationId(r.conversation_id);
        setMessages((m) => merge(m, r.messages));
        // Stopped too late for /chat to drop the run: it is stopped by its conversation, and followed to its stopped message.
        if (ask.stopped && r.run_started) await stopRun(r.conversation_id).catch(() => {});
        // A run already started is followed (GET /events), not asked again: one that failed meanwhile shows « Réessayer ».
        if (r.requires_final_processing) await runFinal(r.conversation_id, gen, r.run_started ? "join" : "start");
        return true;
      } catch (err) {
        if (gen !== generation.current) return false;
        setMessages((m) => m.filter((x) => x !== temp));
        const n = sendNotice(err);
        setNotice(n);
        if (n.pricing) d.onNeedPricing();
        return false;
      } finally {
        if (gen === generation.current) {
          running.current = false;
          setBusy(false);
        }
      }
    },
    [conversationId, runFinal, beginAsk, endAsk],
  );

  /** A conversation from the history tab; throws so the caller can show its own error. */
  const load = useCallback(
    async (id: number) => {
      const conv = await unwrap(api.unisson.conversation[":id"].$get({ param: { id: String(id) } }));
      generation.current += 1;
      running.current = false;
      setBusy(false);
      cancel();
      setNotice(null);
      setConversationId(id);
      setMessages(conv.messages);
      setVersions(conv.versions);
      // A question still waiting for its answer: its run may be going on, or have failed (Réessayer).
      if (conv.messages.at(-1)?.sender === "user") void runFinal(id, generation.current, "resume");
    },
    [cancel, runFinal, setVersions],
  );

  /** 'Nouvelle question': forget the current conversation (it stays in the history). */
  const reset = useCallback(() => {
    generation.current += 1;
    stream.current?.abort();
    rememberRun(null);
    setLive(null);
    running.current = false;
    setBusy(false);
    cancel();
    setNotice(null);
    setConversationId(null);
    setMessages([]);
    setVersions([]);
  }, [cancel, setVersions]);

  const forget = useCallback(
    (id: number) => {
      if (id === conversationId) reset();
    },
    [conversationId, reset],
  );

  // After a reload during a run: re-open its conversation and re-attach to the run.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at mount.
  useEffect(() => {
    const id = rememberedRun();
    if (id !== null) load(id).catch(() => rememberRun(null));
  }, []);

  return { conversationId, messages, busy, progress, live, notice, setNotice, send, retry, load, reset, forget, steer, asking };
}

export type ChatState = ReturnType<typeof useChat>;
