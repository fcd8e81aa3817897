/**
 * How the fake clarifier answers the refusal confirmation (src/ai/refusal-confirm.ts):
 * a fixed rule, written once and never looking at the corpus labels, so the
 * full pipeline's figures measure the pipeline, not the labels. The rule, as
 * a cheap model might judge: a text is a refusal when it gives no figure, no
 * list and is short (at most 60 words); anything else is an answer.
 */
export const FAKE_JUDGE_MAX_WORDS = 60;

/** The text the confirmation sent, without its delimiters. */
function judgedText(prompt: string): string {
  return prompt.replace(/^<<<TEXTE\n/, "").replace(/\nTEXTE>>>$/, "");
}

/** The fake judge's verdict on a text: true, a refusal. */
export function fakeJudgeSaysRefusal(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean).length;
  const list = /^\s*(?:[-*•]|\d+[.)])\s/m.test(text);
  return !/\d/.test(text) && !list && words <= FAKE_JUDGE_MAX_WORDS;
}

/** The fake judge's answer, as the confirmation prompt asks it: one JSON object. */
export function fakeJudgeAnswer(prompt: string): string {
  return JSON.stringify({ refus: fakeJudgeSaysRefusal(judgedText(prompt)) });
}
