/**
 * The fake providers in a process of their own: `bun test/fakes/ai/standalone.ts '<scripts JSON>'`
 * prints the env JSON on its first stdout line and serves until SIGTERM or
 * stdin closes. The benchmark uses it so the fakes' own CPU is not counted as
 * the engine's; scripts are { "<model>": ModelScript, ... }.
 */
import { type FakeModel, type ModelScript, startFakeProviders } from "./index.ts";

const fakes = startFakeProviders();
const scripts = JSON.parse(process.argv[2] ?? "{}") as Partial<Record<FakeModel, ModelScript>>;
for (const [model, script] of Object.entries(scripts)) fakes.control.set(model as FakeModel, script!);
process.stdout.write(`${JSON.stringify(fakes.env)}\n`);

const stop = async () => {
  await fakes.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.resume();
