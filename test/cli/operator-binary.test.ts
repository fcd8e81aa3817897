import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { runBinary, tempDir } from "../helpers/binary.ts";

// Each CLI run is a real process that loads the whole product: slow on a busy machine, never a timing assertion.
setDefaultTimeout(60_000);

const dir = tempDir("unisson-opbin-");
afterAll(() => dir.cleanup());

describe("the operator CLI in the compiled executable", () => {
  test("users create then users list --json, on the database of DATA_DIR", () => {
    const env = { DATA_DIR: `${dir.path}/data` };
    const created = runBinary(
      ["users", "create", "--email", "op@example.fr", "--first-name", "Op", "--last-name", "Érateur", "--password", "secret12"],
      env,
      dir.path,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Compte créé : op@example.fr");
    const list = runBinary(["users", "list", "--json"], env, dir.path);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ total: 1, users: [{ email: "op@example.fr", last_name: "Érateur" }] });
  });

  test("a missing user: one French line and exit 1", () => {
    const r = runBinary(["users", "show", "absent@example.fr"], { DATA_DIR: `${dir.path}/data` }, dir.path);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Utilisateur introuvable : absent@example.fr");
  });
});
