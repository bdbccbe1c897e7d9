import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import readline from "node:readline";
import { ROOT } from "./paths";

/** Environment of a child; plain record (Next's types make NODE_ENV required on ProcessEnv). */
export type Env = Record<string, string | undefined>;

export type Echo = (line: string, stream: "stdout" | "stderr") => void;

export interface ChildOptions {
  /** Short label used in prefixes and messages ("service", "dashboard"). */
  name: string;
  command: string;
  args: string[];
  env: Env;
  cwd?: string;
  /** Copy each output line to our stdout, prefixed with the name ("prefix") or as is ("plain"), or hand it to a function (the launcher's JSON lines, ./json-lines.ts). */
  echo?: "prefix" | "plain" | false | Echo;
  /** Also write every output line to this file. */
  logFile?: string;
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** Exit code once it has ended (null when ended by a signal). */
  exited: Promise<number | null>;
  hasExited(): boolean;
  /** Last lines of output, for error messages. */
  tail(count?: number): string;
  /** Resolves with the first output line matching `pattern` (also one already printed). */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM to the whole group, SIGKILL after a grace period; says which ended it. Safe to call twice. */
  stop(graceMs?: number): Promise<"exited" | "killed">;
}

const running = new Set<Child>();

// Last resort for a crash or an early process.exit: never leave a server behind.
process.on("exit", () => {
  for (const child of running) signalGroup(child.process, "SIGKILL");
});

/**
 * For the command-line scripts (test, e2e, benchmark): Ctrl+C or SIGTERM stops every server
 * they started, whatever step they are at, then exits. start.ts orders its own shutdown.
 */
export function stopChildrenOnSignal(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await Promise.all([...running].map((child) => child.stop(5_000)));
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

/**
 * Stops a stack's servers one by one in the order they started: the service before the
 * dashboard. The service is the one that sends: stopped first, nothing arrives at the
 * dashboard while it stops. (A dashboard told to stop while its webhook deliveries kept
 * arriving held on until its SIGKILL at the end of the 10 s grace: the demo's stack stopped in
 * 10.8 s against 0.5 s with the service first. It now closes each connection after its answer
 * once told to stop, lib/server/http/close-on-stop.ts, and ends either way.) A test's or a
 * benchmark's stack has nothing of its own left in flight by then; `npm start` keeps its
 * own order (scripts/start.ts).
 */
export async function stopInStartOrder(children: readonly Child[], graceMs?: number): Promise<Record<string, "exited" | "killed">> {
  const outcomes: Record<string, "exited" | "killed"> = {};
  for (const child of children) outcomes[child.name] = await child.stop(graceMs);
  return outcomes;
}

function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    // Negative pid: the process group the child leads (it was started detached = setsid).
    process.kill(-proc.pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Starts a program in a process group of its own, so that stopping it also stops whatever
 * it started (npm, Next's workers), and the terminal's Ctrl+C reaches only us: we decide
 * the order in which children stop.
 */
export function startChild(options: ChildOptions): Child {
  const proc = spawn(options.command, options.args, {
    cwd: options.cwd ?? ROOT,
    env: options.env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const log: WriteStream | null = options.logFile ? createWriteStream(options.logFile, { flags: "a" }) : null;
  let ended = false;

  const onLine = (line: string, stream: "stdout" | "stderr" = "stdout") => {
    lines.push(line);
    if (lines.length > 400) lines.shift();
    log?.write(`${line}\n`);
    if (typeof options.echo === "function") options.echo(line, stream);
    else if (options.echo === "prefix") {
      const tag = `[${options.name}]`;
      process.stdout.write(line.startsWith(tag) ? `${line}\n` : `${tag} ${line}\n`);
    }
    else if (options.echo === "plain") process.stdout.write(`${line}\n`);
    for (const watch of watchers) watch(line);
  };
  for (const [stream, name] of [[proc.stdout, "stdout"], [proc.stderr, "stderr"]] as const) {
    if (stream) readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => onLine(line, name));
  }

  const exited = new Promise<number | null>((resolve) => {
    proc.on("error", (error) => {
      onLine(`failed to start: ${error.message}`, "stderr");
      ended = true;
      resolve(1);
    });
    proc.on("exit", (code) => {
      ended = true;
      running.delete(child);
      // Let readline flush the last lines before anyone reads the tail.
      setImmediate(() => {
        log?.end();
        resolve(code);
      });
    });
  });

  const child: Child = {
    name: options.name,
    process: proc,
    exited,
    hasExited: () => ended,
    tail: (count = 40) => lines.slice(-count).join("\n"),
    waitForLine(pattern, timeoutMs) {
      const seen = lines.map((l) => l.match(pattern)).find(Boolean);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          watchers.delete(watch);
        };
        const watch = (line: string) => {
          const match = line.match(pattern);
          if (match) {
            done();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${options.name} did not print ${pattern} within ${timeoutMs / 1000}s. Its last output:\n${child.tail()}`));
        }, timeoutMs);
        watchers.add(watch);
        void exited.then((code) => {
          if (!watchers.has(watch)) return;
          done();
          reject(new Error(`${options.name} exited (code ${code}) before it was ready. Its last output:\n${child.tail()}`));
        });
      });
    },
    async stop(graceMs = 10_000) {
      if (ended) return "exited";
      let killed = false;
      signalGroup(proc, "SIGTERM");
      const timer = setTimeout(() => {
        killed = true;
        signalGroup(proc, "SIGKILL");
      }, graceMs);
      await exited;
      clearTimeout(timer);
      // The leader is gone; make sure nothing it started lingers in its group.
      signalGroup(proc, "SIGKILL");
      return killed ? "killed" : "exited";
    },
  };
  running.add(child);
  return child;
}

/**
 * Runs a program to its end with our terminal as its output (colours and progress as the
 * tool draws them) but in a group of its own, so Ctrl+C stops it through us, group and all.
 */
export async function runToEnd(command: string, args: string[], env: Env): Promise<number> {
  const proc = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "inherit", "inherit"] });
  const stop = () => signalGroup(proc, "SIGTERM");
  const kill = () => signalGroup(proc, "SIGKILL");
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.once("exit", kill);
  try {
    return await new Promise<number>((resolve) => {
      proc.on("error", (error) => {
        console.error(`could not run ${command}: ${error.message}`);
        resolve(1);
      });
      proc.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
    });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.off("exit", kill);
  }
}
