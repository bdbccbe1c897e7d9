import { defineConfig } from "drizzle-kit";

// Generates the dashboard's migrations into drizzle/; db() applies them at start.
// Every file in lib/server/db/schema/ is read, so a feature adds its tables in a file of its own.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/server/db/schema",
  out: "./drizzle",
});
