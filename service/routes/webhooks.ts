import type { App } from "../context";

export function register(_app: App) {}
