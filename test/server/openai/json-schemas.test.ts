import { describe, expect, test } from "bun:test";
import { compiledSchemas, compileSchema } from "../../../src/chat/json-schemas.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp } from "./openai.helpers.ts";

/** /v1 structured output's JSON Schemas (src/chat/json-schemas.ts): the drafts clients declare, `$id`, a bounded cache. */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const VALID = { ville: "Paris" };
const city = (extra: Record<string, unknown> = {}) => ({ type: "object", properties: { ville: { type: "string" } }, required: ["ville"], ...extra });

type Api = Awaited<ReturnType<typeof apiApp>>;

async function ask(t: Api, schema: Record<string, unknown>, key = t.key, question = QUESTION) {
  const res = await fetch(`${t.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "unisson",
      messages: [{ role: "user", content: question }],
      response_format: { type: "json_schema", json_schema: { name: "ville", schema } },
    }),
  });
  const body = (await res.json()) as { choices?: Array<{ message: { content: string } }>; error?: { message: string } };
  return { status: res.status, content: body.choices?.[0]?.message.content, error: body.error?.message };
}

describe("/v1 JSON Schemas", () => {
  test.each([
    ["draft-04", "http://json-schema.org/draft-04/schema#"],
    ["draft-06", "http://json-schema.org/draft-06/schema#"],
    ["2019-09", "https://json-schema.org/draft/2019-09/schema"],
  ])("a schema declaring %s is read with that draft: the answer follows it", async (_name, uri) => {
    const t = await apiApp(fakes());
    fakes().control.synthesis = () => JSON.stringify(VALID);
    const res = await ask(t, city({ $schema: uri }));
    expect(res.error).toBeUndefined();
    expect(JSON.parse(res.content!)).toEqual(VALID);
  });

  test("a $schema naming no draft Ajv reads: 400 naming the drafts accepted, nothing asked", async () => {
    const t = await apiApp(fakes());
    const res = await ask(t, city({ $schema: "https://example.org/mon-schema" }));
    expect(res.status).toBe(400);
    expect(res.error).toContain("2020-12, 2019-09, draft-07, draft-06 ou draft-04");
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
  });

  test("a schema with an $id, sent again by another user of the same server: answered each time, never 400", async () => {
    const t = await apiApp(fakes());
    const other = await apiApp(fakes());
    fakes().control.synthesis = () => JSON.stringify(VALID);
    const schema = city({ $id: "https://exemple.fr/schemas/ville.json" });
    expect((await ask(t, schema)).status).toBe(200);
    expect((await ask(t, schema, t.key, "Et celle de l'Italie ?")).status).toBe(200);
    expect((await ask(other, { ...schema, description: "une autre version" })).status).toBe(200);
  });

  test("compiled schemas are kept by content, at most 200: the same content is compiled once, 500 different ones keep 200", () => {
    const schema = city({ title: "une" });
    expect(compileSchema(schema)).toBe(compileSchema(structuredClone(schema)));
    for (let i = 0; i < 500; i++) compileSchema(city({ title: `schéma ${i}` }));
    expect(compiledSchemas()).toBe(200);
  });
});
