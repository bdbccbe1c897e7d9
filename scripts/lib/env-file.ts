import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseEnv } from "node:util";

/** The variables of a dotenv file, or none when it does not exist. */
export function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const parsed = parseEnv(readFileSync(file, "utf8"));
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The file holds AUTH_SECRET and the service key: only its owner may read it (0600). */
export const ENV_FILE_MODE = 0o600;

/**
 * Appends the given variables that the file does not set yet; a value already there is
 * the developer's (or an earlier start's) and is never overwritten. Returns what it wrote.
 */
export function appendMissingEnv(file: string, values: Record<string, string>, comment?: string): string[] {
  // A file written 0644 by an earlier version is narrowed too.
  if (existsSync(file)) chmodSync(file, ENV_FILE_MODE);
  const existing = readEnvFile(file);
  const missing = Object.entries(values).filter(([key]) => !(key in existing));
  if (missing.length === 0) return [];
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lead = current === "" || current.endsWith("\n") ? "" : "\n";
  const lines = missing.map(([key, value]) => `${key}=${value}`);
  appendFileSync(file, `${lead}${comment ? `# ${comment}\n` : ""}${lines.join("\n")}\n`, { mode: ENV_FILE_MODE });
  chmodSync(file, ENV_FILE_MODE);
  return missing.map(([key]) => key);
}

/**
 * Sets one variable: its line is replaced where the file has one, appended (after `comment`)
 * otherwise. For values the scripts own, like the marker of the bundled service's URL.
 */
export function setEnvValue(file: string, key: string, value: string, comment?: string): void {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const line = new RegExp(`^(\\s*(?:export\\s+)?${key}\\s*=).*$`, "m");
  if (line.test(current)) {
    writeFileSync(file, current.replace(line, `${key}=${value}`), { mode: ENV_FILE_MODE });
    chmodSync(file, ENV_FILE_MODE);
    return;
  }
  appendMissingEnv(file, { [key]: value }, comment);
}
