import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/** The file holds the account-wide key: only its owner may read it (0600), also when it existed before. */
export const ENV_FILE_MODE = 0o600;

function restrict(file: string): void {
  if (existsSync(file)) chmodSync(file, ENV_FILE_MODE);
}

/**
 * Adds variables to a dotenv file without overwriting any it already sets: an existing
 * non-empty value wins, an empty one (`KEY=`) is filled in place, a new one is appended.
 * Every other line stays as it was. Creates the file (and its folder) when missing.
 */
export function mergeEnvFile(path: string, values: Record<string, string>): { path: string; written: string[]; kept: string[] } {
  const file = resolve(path);
  const original = existsSync(file) ? readFileSync(file, "utf8") : "";
  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const lines = original === "" ? [] : original.replace(/\r?\n$/, "").split(/\r?\n/);
  const written: string[] = [];
  const kept: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const m = ASSIGNMENT.exec(lines[i]);
    if (!m || !(m[1] in values) || seen.has(m[1])) continue;
    seen.add(m[1]);
    if (m[2].trim() === "" || m[2].trim() === '""' || m[2].trim() === "''") {
      lines[i] = `${m[1]}=${values[m[1]]}`;
      written.push(m[1]);
    } else {
      kept.push(m[1]);
    }
  }
  for (const [key, value] of Object.entries(values)) {
    if (seen.has(key)) continue;
    lines.push(`${key}=${value}`);
    written.push(key);
  }
  if (written.length) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${lines.join(eol)}${eol}`, { mode: ENV_FILE_MODE });
  }
  restrict(file);
  return { path: file, written, kept };
}

/**
 * Values that could not be written because the file already sets them, kept for the person
 * as commented-out lines at its end — never printed, since one of them is a secret.
 */
export function appendEnvComment(path: string, heading: string, values: Record<string, string>): void {
  const file = resolve(path);
  const original = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lead = original === "" || original.endsWith("\n") ? "" : "\n";
  const lines = [`# ${heading}`, ...Object.entries(values).map(([k, v]) => `# ${k}=${v}`)];
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${lead}${lines.join("\n")}\n`, { mode: ENV_FILE_MODE });
  restrict(file);
}
