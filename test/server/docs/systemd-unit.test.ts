import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_DATA_DIR } from "../../../src/config.ts";

const ROOT = join(import.meta.dir, "../../..");
const unitText = readFileSync(join(ROOT, "deploy/unisson.service"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** Every `Key=value` of the unit (a key set twice keeps all its values, in order). */
const unit = new Map<string, string[]>();
for (const line of unitText.split("\n")) {
  const m = line.match(/^([A-Za-z]+)=(.*)$/);
  if (m) unit.set(m[1]!, [...(unit.get(m[1]!) ?? []), m[2]!]);
}
const one = (key: string) => {
  const values = unit.get(key) ?? [];
  expect(values.length).toBe(1);
  return values[0]!;
};
/** The variables of the unit's Environment= lines. */
const environment = Object.fromEntries((unit.get("Environment") ?? []).flatMap((l) => l.split(/\s+/).map((pair) => pair.split("=") as [string, string])));

describe("deploy/unisson.service (the binary as a systemd service)", () => {
  test("runs as its own user, restarted on failure", () => {
    expect(one("User")).toBe("unisson");
    expect(one("Group")).toBe("unisson");
    expect(one("Restart")).toBe("on-failure");
    expect(one("ExecStart")).toMatch(/^\/\S+\/unisson serve$/);
  });

  test("is hardened: read-only system, no new privileges, only the data folder writable", () => {
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("ProtectHome")).toBe("yes");
    expect(one("PrivateTmp")).toBe("yes");
    expect(one("CapabilityBoundingSet")).toBe("");
    expect(one("ReadWritePaths")).toBe(environment.DATA_DIR!);
    // Bun's JIT writes executable memory.
    expect(unit.has("MemoryDenyWriteExecute")).toBe(false);
  });

  test("takes its settings from the data folder's .env, the file the CLI reads too", () => {
    expect(one("EnvironmentFile")).toBe(join(environment.DATA_DIR!, ".env"));
    // Run from the working directory, the CLI's default data folder is the server's.
    expect(join(one("WorkingDirectory"), DEFAULT_DATA_DIR)).toBe(environment.DATA_DIR!);
  });

  test("leaves BUN_CONFIG_MAX_HTTP_REQUESTS to the executable, which sets it itself (issue 46)", () => {
    // A value set here would be kept, and replace the executable's 8192 by a lower one.
    expect(environment).not.toHaveProperty("BUN_CONFIG_MAX_HTTP_REQUESTS");
    expect(unitText).not.toContain("BUN_CONFIG_MAX_HTTP_REQUESTS");
    expect(readme).not.toContain("BUN_CONFIG_MAX_HTTP_REQUESTS=1024");
  });

  test("is the README's way to run the binary, with the same paths", () => {
    expect(readme).toContain("deploy/unisson.service");
    expect(readme).toContain(one("EnvironmentFile"));
    expect(readme).toContain(`cd ${one("WorkingDirectory")} && sudo -u ${one("User")} ./unisson users reset-password`);
  });
});
