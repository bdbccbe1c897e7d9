/**
 * Which email service `npm start` uses, from the shell and `.env.local` (the shell wins, as in
 * Next itself). The bundled service in service/ writes SERVICE_URL, SERVICE_API_KEY and
 * SERVICE_PROJECTS into `.env.local` on its first start; `npm start` then records the URL it
 * listens on as SERVICE_LOCAL_URL. So on the next start:
 *
 * - nothing set                      → start the bundled service (it writes the values);
 * - SERVICE_URL equal to the marker  → the bundled service's own values: start it again;
 * - anything else the user set       → their service: never start the bundled one, check it.
 */
export const LOCAL_MARKER = "SERVICE_LOCAL_URL";
export const LOCAL_MARKER_COMMENT = "Written by npm start: SERVICE_URL is the bundled service (service/), started again at each npm start. Remove this line to treat that URL as a service of your own";

export type ServiceSetting =
  | { kind: "bundled"; port: string }
  | { kind: "local"; url: string; key: string; projects: string[]; port: string }
  | { kind: "external"; url: string; key: string; projects: string[]; from: "shell" | "file" }
  | { kind: "incomplete"; message: string };

type Vars = Record<string, string | undefined>;

const sameUrl = (a: string, b: string) => a.trim().replace(/\/+$/, "") === b.trim().replace(/\/+$/, "");
const portOf = (url: string) => {
  const u = new URL(url);
  return u.port || (u.protocol === "https:" ? "443" : "80");
};

export function projectList(value: string | undefined): string[] {
  return [...new Set((value ?? "").split(",").map((s) => s.trim()).filter(Boolean))];
}

export function serviceSetting(shell: Vars, file: Vars): ServiceSetting {
  const pick = (key: string) => (shell[key]?.trim() ? shell[key]!.trim() : file[key]?.trim() || undefined);
  const url = pick("SERVICE_URL");
  const key = pick("SERVICE_API_KEY");
  const projects = projectList(pick("SERVICE_PROJECTS"));
  const marker = file[LOCAL_MARKER]?.trim();

  if (!url && !key) return { kind: "bundled", port: pick("SERVICE_PORT") ?? "4010" };
  if (url && marker && sameUrl(url, marker)) {
    try {
      return key ? { kind: "local", url, key, projects, port: portOf(url) } : { kind: "bundled", port: portOf(url) };
    } catch {
      // An unparsable URL is reported below like any other.
    }
  }
  if (!url || !key) {
    const missing = url ? "SERVICE_API_KEY" : "SERVICE_URL";
    const present = url ? "SERVICE_URL" : "SERVICE_API_KEY";
    return {
      kind: "incomplete",
      message: `${present} is set but ${missing} is not. Set both to use your email service, or neither to use the bundled one.`,
    };
  }
  try {
    new URL(url);
  } catch {
    return { kind: "incomplete", message: `SERVICE_URL is not a URL: ${url}` };
  }
  return { kind: "external", url, key, projects, from: shell.SERVICE_URL?.trim() ? "shell" : "file" };
}
