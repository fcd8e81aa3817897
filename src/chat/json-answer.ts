import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import localizeFr from "ajv-i18n/localize/fr/index.js";
import { frChat } from "../i18n/fr-chat.ts";
import { AppError } from "../lib/errors.ts";
import { jsonSynthesisSystem } from "./prompts.ts";
import type { LengthLimit } from "./answer-length.ts";
import type { SynthesisPlan } from "./synthesis-plan.ts";

/** A /v1 response_format: a JSON value following the client's JSON Schema, or any JSON object. */
export type JsonFormat = { schema: Record<string, unknown> } | { schema: null };

/**
 * Two validators (Ajv caches what each compiled): draft 2020-12, the
 * default (OpenAI's structured outputs send no `$schema`), and draft-07 for
 * a schema that says so (the openai SDK's zod helpers do). `strict: false`
 * because clients send keywords Ajv does not know (OpenAI's `strict`,
 * titles) and they must not refuse the schema.
 */
const draft2020 = new Ajv2020({ strict: false });
const draft07 = new Ajv({ strict: false });

function ajvFor(schema: Record<string, unknown>) {
  return typeof schema.$schema === "string" && /draft-0[4-7]/.test(schema.$schema) ? draft07 : draft2020;
}

/** The client's schema, compiled once per request; a schema Ajv cannot compile is the client's error (400). */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  try {
    return ajvFor(schema).compile(schema);
  } catch (e) {
    throw new AppError("API_SCHEMA_INVALID", undefined, {}, { param: "response_format", reason: (e as Error).message });
  }
}

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
      return frChat.reason.schemaMismatch(draft2020.errorsText(check.errors, { separator: " ; ", dataVar: "la réponse" }));
    },
    finish: (text) => JSON.stringify(JSON.parse(unfenced(text))),
    json: true,
  };
}
