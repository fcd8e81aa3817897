import { type MutableRefObject, useCallback, useState } from "react";
import { frSteer } from "../../../i18n/fr-steer.ts";
import type { ChatMessage } from "../../../lib/api-types.ts";
import { ApiError } from "../../../lib/api.ts";
import type { Notice } from "../chat-blocks.ts";
import { editQuestion, regenerateAnswer, showVersion, stopRun, type VersionInfo } from "./steer.api.ts";

/** What the conversation hook lends: its state setters, its run, and its guards against two actions at once. */
export type SteerHost = {
  conversationId: number | null;
  running: MutableRefObject<boolean>;
  generation: MutableRefObject<number>;
  setBusy(busy: boolean): void;
  setNotice(n: Notice | null): void;
  setMessages(m: ChatMessage[]): void;
  runFinal(id: number, gen: number): Promise<void>;
  noticeOf(err: unknown): Notice;
};

const errorNotice = (err: unknown, fallback: string): Notice => ({ kind: "error", text: err instanceof ApiError && err.detail ? err.detail : fallback });

/**
 * « Arrêter », edit and ask again, « Nouvelle réponse » and the version
 * switcher of the open conversation. A stop ends the run's stream with its
 * stopped message (use-chat.ts shows it); asking again replaces the shown
 * question by its new version, then follows the new run like any question.
 */
export function useSteer(host: SteerHost) {
  const [versions, setVersions] = useState<VersionInfo[]>([]);
  const [stopping, setStopping] = useState(false);
  const { conversationId: id, running, generation, setBusy, setNotice, setMessages, runFinal, noticeOf } = host;

  const stop = useCallback(async () => {
    if (id === null || stopping) return;
    setStopping(true);
    try {
      await stopRun(id);
    } catch (err) {
      // 409: the run ended meanwhile, its answer is on its way.
      if (!(err instanceof ApiError && err.status === 409)) setNotice(errorNotice(err, frSteer.stopFailed));
    } finally {
      setStopping(false);
    }
  }, [id, stopping, setNotice]);

  /** Edited text, or none for « Nouvelle réponse »; false when it was not taken (the edit box keeps the text). */
  const askAgain = useCallback(
    async (edited?: string): Promise<boolean> => {
      if (id === null || running.current) return false;
      running.current = true;
      setBusy(true);
      setNotice(null);
      const gen = generation.current;
      try {
        const r = edited === undefined ? await regenerateAnswer(id) : await editQuestion(id, edited);
        if (gen !== generation.current) return true;
        setMessages(r.messages);
        setVersions(r.versions);
        await runFinal(id, gen);
        return true;
      } catch (err) {
        if (gen === generation.current) setNotice(noticeOf(err));
        return false;
      } finally {
        if (gen === generation.current) {
          running.current = false;
          setBusy(false);
        }
      }
    },
    [id, running, generation, setBusy, setNotice, setMessages, runFinal, noticeOf],
  );

  const switchTo = useCallback(
    async (group: number, version: number) => {
      if (id === null || running.current) return;
      try {
        const r = await showVersion(id, group, version);
        setMessages(r.messages);
        setVersions(r.versions);
      } catch (err) {
        setNotice(errorNotice(err, frSteer.error));
      }
    },
    [id, running, setMessages, setNotice],
  );

  return { versions, setVersions, stopping, stop, askAgain, switchTo };
}
