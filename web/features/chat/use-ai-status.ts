import { useCallback, useEffect, useState } from "react";
import type { AiStatus, ModelInfo } from "../../lib/api-types.ts";
import { api, unwrap } from "../../lib/api.ts";
import { takeEarly } from "../../lib/early.ts";
import { fetchModels } from "./chat.api.ts";
export type StatusState = {
  models: ModelInfo[];
  aiStatus: AiStatus[];
  operational: boolean;
  /** False until the first answer: the UI does not claim maintenance before it knows. */
  loaded: boolean;
  /** Whether the server offers web search, and whether it starts on (issue 45); unknown until the first answer. */
  webSearch?: { available: boolean; default: boolean };
};

/** docs/PRODUCT.md#models: the status is polled every 120000 ms while signed in. */
export const STATUS_POLL_MS = 120_000;

const initial: StatusState = { models: [], aiStatus: [], operational: true, loaded: false };

/** Models once at start, then the cheap status every 2 minutes; failures are only logged (docs/PRODUCT.md#models). */
export function useAiStatus() {
  const [state, setState] = useState<StatusState>(initial);

  const loadModels = useCallback(async () => {
    try {
      const r = await takeEarly("models", fetchModels);
      setState({
        models: r.models,
        aiStatus: r.ai_status,
        operational: r.system_operational,
        loaded: true,
        webSearch: r.web_search,
      });
    } catch (err) {
      console.warn("models", err);
    }
  }, []);

  const poll = useCallback(async () => {
    try {
      const r = await unwrap(api.unisson.status.$get());
      setState((s) => ({ ...s, aiStatus: r.ai_status, operational: r.system_operational, loaded: true, webSearch: r.web_search }));
    } catch (err) {
      console.warn("status", err);
    }
  }, []);

  useEffect(() => {
    void loadModels();
    const id = setInterval(() => void poll(), STATUS_POLL_MS);
    return () => clearInterval(id);
  }, [loadModels, poll]);

  const available = state.aiStatus.filter((a) => a.available).length;
  const total = state.models.length || state.aiStatus.length;
  return { ...state, available, total, refresh: poll };
}

export type AiStatusValue = ReturnType<typeof useAiStatus>;
