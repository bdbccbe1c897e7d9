/**
 * Start-up of the dashboard server (Node runtime only): environment check, migrations,
 * first admin, demo projects. NEXT_RUNTIME and NEXT_PHASE are set by Next itself, not by
 * the operator, so reading them here does not bypass lib/server/env.ts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startOrExit } = await import("./lib/server/startup");
  await startOrExit();
}
