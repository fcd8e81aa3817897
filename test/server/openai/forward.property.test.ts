import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { finishedPrefix, finishSynthesis } from "../../../src/chat/synthesis.ts";
import type { RunEvent } from "../../../src/chat/live-run.ts";
import { SynthesisForwarder } from "../../../src/openai/forward.ts";

const LABELS = { A: "GPT-4", B: "Claude Opus 4.1" };
const NOTICE = "**Réponse partielle** : synthèse établie à partir de 5 réponses sur 6.";

/** Lines that finishSynthesis rewrites or that decide what it rewrites: labels, brackets, Sources titles, other sections, blanks. */
const LINE = fc.constantFrom(
  "## Réponse consolidée",
  "Paris est la capitale.",
  "Selon la Réponse A",
  "(GPT-4) et la Réponse B",
  "Réponse C",
  "  ",
  "",
  "## Sources",
  "**Sources** :",
  "### sources",
  "- https://exemple.fr",
  "## Divergences",
  "**Point clé**",
  "# Titre",
  "Sources citées",
);

/** A synthesis text cut into deltas at arbitrary points, as a provider streams it. */
const WRITTEN = fc
  .tuple(fc.array(LINE, { maxLength: 12 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }))
  .map(([lines, newlineAtEnd, cuts]) => {
    const text = lines.join("\n") + (newlineAtEnd ? "\n" : "");
    const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    const deltas = [0, ...at].map((from, i, all) => text.slice(from, all[i + 1] ?? text.length)).filter(Boolean);
    return { text, deltas };
  })
  .filter(({ text }) => text.trim().length > 0);

let id = 0;
const ev = (type: RunEvent["type"], data: Record<string, unknown>): RunEvent => ({ id: ++id, type, data });

describe("property: the forwarded text of a synthesis", () => {
  test("every prefix sent while it is written is a prefix of the stored answer; the deltas add up to it exactly", () => {
    fc.assert(
      fc.property(
        WRITTEN,
        fc.constantFrom(null, NOTICE),
        fc.constantFrom([], ["https://fr.wikipedia.org/wiki/Paris"]),
        ({ text, deltas }, notice, citations) => {
          const stored = finishSynthesis(text, LABELS, citations, notice);
          const sent: string[] = [];
          const forwarder = new SynthesisForwarder((t) => sent.push(t));
          forwarder.on(ev("synthesis_started", { model: "GPT-4", labels: LABELS, notice }));
          for (const d of deltas) {
            forwarder.on(ev("synthesis_delta", { text: d }));
            expect(stored.startsWith(sent.join(""))).toBe(true);
          }
          forwarder.end(stored);
          expect(sent.join("")).toBe(stored);
          expect(forwarder.restarted).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("what is ready never shrinks as more text comes", () => {
    fc.assert(
      fc.property(WRITTEN, ({ deltas }) => {
        let written = "";
        let before = "";
        for (const d of deltas) {
          written += d;
          const now = finishedPrefix(written, LABELS, null);
          expect(now.startsWith(before)).toBe(true);
          before = now;
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("a handover after text was sent: the abandoned text, the restart line, then the stored answer whole", () => {
    const sent: string[] = [];
    const forwarder = new SynthesisForwarder((t) => sent.push(t));
    forwarder.on(ev("synthesis_started", { model: "Claude Opus 4.1", labels: LABELS, notice: null }));
    forwarder.on(ev("synthesis_delta", { text: "## Réponse consolidée\nParis" }));
    forwarder.on(ev("synthesis_failed", { model: "Claude Opus 4.1", reason: "flux interrompu" }));
    forwarder.on(ev("synthesis_started", { model: "GPT-4", labels: LABELS, notice: NOTICE }));
    forwarder.on(ev("synthesis_delta", { text: "## Réponse consolidée\nRome" }));
    const stored = finishSynthesis("## Réponse consolidée\nRome est en Italie.", LABELS, [], NOTICE);
    forwarder.end(stored);
    expect(sent.join("")).toBe(
      `## Réponse consolidée\n\n---\n\n*La synthèse de Claude Opus 4.1 s'est interrompue (flux interrompu) : la réponse complète suit.*\n\n${stored}`,
    );
    expect(forwarder.restarted).toBe(true);
  });
});
