import { FRAME_LABEL, QUOTED, SPOKEN_LINE } from "./refusal-lexicon.ts";

/**
 * A text split for the refusal judgment: `voice`, what the model says in its
 * own name (where a decline counts), and `framed`, what it presents, quotes
 * or writes for the user (a letter template, a translation, a dialogue, code,
 * a quotation): content, never a decline.
 */
export type Voices = { voice: string; framed: string };

/** JSON keys whose value is a text written for the user, not the model's own words. */
const FRAMED_KEY = /(?:trad|transl|templ|mod[eè]le|exemple|example|citation|quote|refus|brouillon|draft|script|dialog)/i;

/**
 * The string values of a JSON answer (a /v1 response_format), the model's
 * words first, the framed ones apart; null when the text is not JSON.
 */
function jsonVoices(text: string): Voices | null {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  if (!/^[[{]/.test(body)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const voice: string[] = [];
  const framed: string[] = [];
  const walk = (value: unknown, key: string, inFrame: boolean) => {
    const framedHere = inFrame || FRAMED_KEY.test(key);
    if (typeof value === "string") (framedHere ? framed : voice).push(value);
    else if (Array.isArray(value)) for (const v of value) walk(v, key, framedHere);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k, framedHere);
  };
  walk(parsed, "", false);
  return { voice: voice.join("\n"), framed: framed.join("\n") };
}

/** The body of a synthesis's « Réponse consolidée » section when the text has one: the other two report on the members. */
function consolidatedSection(text: string): string | null {
  const lines = text.split("\n");
  const title = (line: string) => /^\s*(?:#{1,6}\s+|\*\*)/.test(line);
  const start = lines.findIndex((l) => title(l) && /r[ée]ponse\s+consolid[ée]e/i.test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && title(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** Code blocks and code spans: an error message or a string constant, not the model's voice. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;

export function splitVoices(text: string, synthesis: boolean): Voices {
  const json = jsonVoices(text);
  if (json) return json;
  const framed: string[] = [];
  const keep = (m: string) => {
    framed.push(m);
    return " ";
  };
  let voice = (synthesis ? consolidatedSection(text) : null) ?? text;
  voice = voice.replace(CODE, keep).replace(QUOTED, keep).replace(FRAME_LABEL, keep);
  // A block after an introducing line (« Voici un modèle de lettre : ») is what the model writes for the user.
  const intro = /^[^\n]*:[ \t]*\n(?=[\s\S]*\S)/m.exec(voice);
  if (intro) {
    const at = intro.index + intro[0].length;
    framed.push(voice.slice(at));
    voice = voice.slice(0, at);
  }
  // Dialogue lines, when there are at least two (one line with a colon is prose).
  const lines = voice.split("\n");
  if (lines.filter((l) => SPOKEN_LINE.test(l)).length >= 2) voice = lines.map((l) => (SPOKEN_LINE.test(l) ? keep(l) : l)).join("\n");
  return { voice, framed: framed.join("\n") };
}
