import { createHash } from "node:crypto";
import type { ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import draft06 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import AjvDraft04 from "ajv-draft-04";
import { AppError } from "../lib/errors.ts";

/**
 * One validator per JSON Schema draft a client may declare in `$schema`:
 * 2020-12 by default (OpenAI's structured outputs send none), 2019-09
 * (ajv/dist/2019), draft-07 and draft-06 (Ajv's default class, with the
 * draft-06 meta-schema), draft-04 (ajv-draft-04, by Ajv's authors).
 * `strict: false` because clients send keywords Ajv does not know (OpenAI's
 * `strict`, titles); `addUsedSchema: false` so a schema's `$id` is never
 * registered: the same `$id` in the next request, from anyone, is not a
 * conflict. Each made when first needed, and replaced (validatorFor).
 */
const options = { strict: false, addUsedSchema: false } as const;
const makers = {
  "2020-12": () => new Ajv2020(options),
  "2019-09": () => new Ajv2019(options),
  "draft-07": () => {
    const ajv = new Ajv(options);
    ajv.addMetaSchema(draft06);
    return ajv;
  },
  "draft-04": () => new AjvDraft04(options),
};
type Draft = keyof typeof makers;

/** The draft a `$schema` names; an unknown one is refused by name rather than read as another draft. */
function draftOf(schema: Record<string, unknown>): Draft {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  if (typeof declared === "string") {
    if (/draft\/2020-12\/schema#?$/.test(declared)) return "2020-12";
    if (/draft\/2019-09\/schema#?$/.test(declared)) return "2019-09";
    if (/draft-0[67]\/schema#?$/.test(declared)) return "draft-07";
    if (/draft-04\/schema#?$/.test(declared)) return "draft-04";
  }
  throw new AppError(
    "API_SCHEMA_INVALID",
    "« $schema » doit nommer un brouillon JSON Schema pris en charge : 2020-12, 2019-09, draft-07, draft-06 ou draft-04.",
    {},
    { param: "response_format" },
  );
}

/** Compiled schemas by content (draft and canonical text), the least recently used dropped past CACHED: memory stays bounded. */
const CACHED = 200;
// Module state: compiled validators are pure functions of the schema's text, shared by every app of the process.
const compiled = new Map<string, ValidateFunction>();

function contentKey(draft: Draft, schema: Record<string, unknown>): string {
  return createHash("sha256").update(draft).update(JSON.stringify(schema)).digest("base64url");
}

/**
 * The client's schema compiled (or found compiled for the same content); a
 * schema Ajv cannot compile is the client's error (400). Ajv's own cache,
 * keyed by the schema object (a new one per request), is emptied at once.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const draft = draftOf(schema);
  const key = contentKey(draft, schema);
  const known = compiled.get(key);
  if (known) {
    compiled.delete(key);
    compiled.set(key, known);
    return known;
  }
  const ajv = validatorFor(draft);
  let check: ValidateFunction;
  try {
    check = ajv.compile(schema);
  } catch (e) {
    throw new AppError("API_SCHEMA_INVALID", undefined, {}, { param: "response_format", reason: (e as Error).message });
  } finally {
    ajv.removeSchema(schema);
  }
  compiled.set(key, check);
  if (compiled.size > CACHED) compiled.delete(compiled.keys().next().value!);
  return check;
}

/**
 * An Ajv keeps something of every schema it compiled in its code scope
 * (names and values the generated functions use), even once removed: a
 * process-wide instance grows with every request (BENCHMARKS.md, "JSON
 * Schemas"). So each draft's instance is replaced after CACHED compiles;
 * the old one goes once the validators it made leave the cache. A new
 * instance costs tens of milliseconds, once per CACHED new schemas.
 */
// Module state: the Ajv instances that compile them, one per draft, for the same reason.
const instances = new Map<Draft, { ajv: ReturnType<(typeof makers)[Draft]>; compiles: number }>();

function validatorFor(draft: Draft) {
  let current = instances.get(draft);
  if (!current || current.compiles >= CACHED) {
    current = { ajv: makers[draft](), compiles: 0 };
    instances.set(draft, current);
  }
  current.compiles++;
  return current.ajv;
}

/** How many compiled schemas are kept (for the memory test). */
export function compiledSchemas(): number {
  return compiled.size;
}

/** Ajv's text of a failed check's errors (ajv-i18n has put them in French already): an instance that never compiles. */
const texts = new Ajv2020(options);
export const errorsText = texts.errorsText.bind(texts);
