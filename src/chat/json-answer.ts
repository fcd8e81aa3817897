import localizeFr from "ajv-i18n/localize/fr/index.js";
import { frChat } from "../i18n/fr-chat.ts";
import { compileSchema, errorsText } from "./json-schemas.ts";
import { jsonSynthesisSystem } from "./prompts.ts";
import type { LengthLimit } from "./answer-length.ts";
import type { SynthesisPlan } from "./synthesis-plan.ts";

/** A /v1 response_format: a JSON value following the client's JSON Schema, or any JSON object. */
export type JsonFormat = { schema: Record<string, unknown> } | { schema: null };

/** A synthesiser may wrap its JSON in a Markdown code block despite being told not to: the block's content is the JSON. */
function unfenced(text: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  return (m ? m[1]! : text).trim();
}

/**
 * The synthesis as JSON: asked with the schema (prompts.ts), checked with
 * Ajv, stored as exactly that JSON (no notice, no sources: the API gives
 * them beside it). A synthesis that is not JSON or does not follow the
 * schema fails like a cut one: the next synthesiser writes it.
 */
export function jsonPlan(format: JsonFormat, limit?: LengthLimit): SynthesisPlan {
  const check = format.schema ? compileSchema(format.schema) : null;
  return {
    system: (nonce) => jsonSynthesisSystem(nonce, format.schema, limit?.maxChars),
    validate: (text) => {
      let value: unknown;
      try {
        value = JSON.parse(unfenced(text));
      } catch {
        return frChat.reason.notJson;
      }
      if (!check) return value !== null && typeof value === "object" && !Array.isArray(value) ? null : frChat.reason.notJsonObject;
      if (check(value)) return null;
      // The reason is shown with the answer's details: in French, as Ajv's own project translates it.
      localizeFr(check.errors);
      return frChat.reason.schemaMismatch(errorsText(check.errors, { separator: " ; ", dataVar: "la réponse" }));
    },
    finish: (text) => JSON.stringify(JSON.parse(unfenced(text))),
    json: true,
  };
}
