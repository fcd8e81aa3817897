import { MODEL_ENV_DEFAULTS } from "../config.ts";
import type { BuiltinKey } from "../db/schema/council.ts";

/**
 * The names and default model ids the migration seeded the six members with
 * (src/db/migrations/*\/*_council.sql): what "Truthful names" compares to
 * (docs/DECISIONS.md). A seeded member still under its seeded name but
 * pointed at another model id shows that model id instead.
 */
export const BUILTIN_DEFAULTS: Record<BuiltinKey, { name: string; model: string }> = {
  gpt4: { name: "GPT-4", model: MODEL_ENV_DEFAULTS.MODEL_GPT4 },
  claudeHaiku: { name: "Claude 3 Haiku", model: MODEL_ENV_DEFAULTS.MODEL_CLAUDE_HAIKU },
  claudeOpus: { name: "Claude Opus 4.1", model: MODEL_ENV_DEFAULTS.MODEL_CLAUDE_OPUS },
  geminiPro: { name: "Gemini Pro", model: MODEL_ENV_DEFAULTS.MODEL_GEMINI_PRO },
  mistralLarge: { name: "Mistral Large", model: MODEL_ENV_DEFAULTS.MODEL_MISTRAL_LARGE },
  sonarPro: { name: "Sonar Pro", model: MODEL_ENV_DEFAULTS.MODEL_SONAR_PRO },
};
