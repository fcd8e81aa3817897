import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/lib/errors.ts";
import { openStream } from "../../../src/openai/stream.ts";

/** The stream helper alone, with a short heartbeat (15 s in the app) so the test does not wait. */
describe("openStream", () => {
  test("a long run sends heartbeat comments before its events, then [DONE]", async () => {
    const res = await openStream({
      heartbeatMs: 20,
      run: async (write) => {
        await Bun.sleep(120);
        write({ n: 1 });
        return 2;
      },
      finish: (n, write) => write({ n }),
    });
    const body = await res.text();
    expect(body.indexOf(": unisson travaille")).toBe(0);
    expect(body.endsWith('data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  test("an error before the first event is thrown, for a real status", async () => {
    const run = openStream({ heartbeatMs: 1_000, run: async () => Promise.reject(new AppError("QUOTA_PRO")), finish: () => {} });
    await expect(run).rejects.toThrow("Vous avez utilisé toutes vos requêtes Pro ce mois-ci.");
  });

  test("an error after the stream opened is an error event in OpenAI's shape, then [DONE]", async () => {
    const res = await openStream({
      heartbeatMs: 1_000,
      run: async (write) => {
        write({ n: 1 });
        await Bun.sleep(10);
        throw new AppError("SYNTHESIS_FAILED");
      },
      finish: () => {},
    });
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(events.at(-2)!.slice(6)).error).toMatchObject({
      type: "server_error",
      message: expect.stringContaining("La synthèse des réponses a échoué"),
    });
  });
});
