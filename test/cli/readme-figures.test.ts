import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../helpers/binary.ts";

/**
 * The README's figure of the executable's size is the measured one (issue 46:
 * it said about 120 MB of an executable of 137 MB). Within 5 %: dependencies
 * move it a little from one commit to the next.
 */
describe("README figures", () => {
  test("the executable's size the README gives is the built one's", () => {
    const readme = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
    const said = Number(/dist\/unisson \(~(\d+) MB/.exec(readme)?.[1]);
    const built = statSync(ensureBinary()).size / 1e6;
    expect(Math.abs(said - built) / built).toBeLessThan(0.05);
  });
});
