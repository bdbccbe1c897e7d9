/**
 * `npm run fuzz [-- --runs N --seed S]`: the fuzz suite (lib/test/fuzz/ and app/api/dashboard.fuzz.test.ts) with a larger budget
 * than CI's (which runs it inside `npm run test:unit` with FUZZ_RUNS unset: 8 and a fixed seed).
 * Prints how many requests each target sent. FUZZ_RUNS / FUZZ_SEED work too.
 */
import { spawn } from "node:child_process";
import { BIN } from "./lib/paths";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = option("runs") ?? process.env.FUZZ_RUNS ?? "40";
const seed = option("seed") ?? process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000_007);
console.log(`fuzz: ${runs} runs per target, seed ${seed} (replay with: npm run fuzz -- --runs ${runs} --seed ${seed})`);

const child = spawn(process.execPath, [BIN.vitest, "run", "lib/test/fuzz", "app/api/dashboard.fuzz.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed },
});
child.on("exit", (code) => process.exit(code ?? 1));
