import { handlers } from "@/lib/server/auth/next-auth";

// Auth.js's own endpoints (session, csrf, sign-in callbacks, sign-out).
export const { GET, POST } = handlers;
