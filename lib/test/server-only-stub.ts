// "server-only" throws outside a React Server environment; unit tests import server modules directly.
export {};
