import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, generatedId as id } from "./columns";

/** The dashboard's own state: users, projects, who sees which, the audit log. */

export const users = pgTable("users", {
  id: id(),
  /** Stored lower-cased; sign-in compares lower-cased input. */
  email: text("email").notNull().unique(),
  name: text("name"),
  role: text("role", { enum: ["admin", "support", "marketer"] }).notNull(),
  active: boolean("active").notNull().default(true),
  /** When true the user sees every registered project, including future ones. Chosen at creation; none by default. */
  allProjects: boolean("all_projects").notNull().default(false),
  /** bcrypt hash; null for users who only sign in through OIDC. */
  passwordHash: text("password_hash"),
  createdAt: at("created_at").notNull().defaultNow(),
  updatedAt: at("updated_at").notNull().defaultNow(),
  lastSignInAt: at("last_sign_in_at"),
});

export const projects = pgTable("projects", {
  id: id(),
  /** The service's project id, sent as X-Service-Product and used in /p/[project] URLs. */
  externalId: text("external_id").notNull().unique(),
  name: text("name").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});

/** The owning project's id: the row goes when the project is removed. */
export const projectIdColumn = () => text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" });
/** The owning user's id: the row goes when the user is removed. */
export const userIdColumn = () => text("user_id").notNull().references(() => users.id, { onDelete: "cascade" });

export const userProjects = pgTable(
  "user_projects",
  {
    userId: userIdColumn(),
    projectId: projectIdColumn(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index("user_projects_project_idx").on(t.projectId)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    /** Insertion order: entries of the same millisecond still list in the order they happened. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    at: at("at").notNull().defaultNow(),
    /** Null for the system (start-up tasks) and for sign-in attempts on unknown accounts. */
    actorId: text("actor_id"),
    /** Kept as text so the entry survives the user being renamed. */
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    /** External id of the project, when the action concerns one. */
    project: text("project"),
    target: text("target"),
    outcome: text("outcome", { enum: ["success", "failure"] }).notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    uniqueIndex("audit_log_seq_idx").on(t.seq),
    index("audit_log_at_idx").on(t.at),
    index("audit_log_action_idx").on(t.action),
    index("audit_log_actor_idx").on(t.actorId),
    index("audit_log_project_idx").on(t.project),
  ],
);

/**
 * Sign-in throttling (lib/server/auth/throttle.ts): one row per key, read and counted in one
 * transaction per attempt (under advisory locks on the keys) before the password is checked,
 * so parallel attempts queue and each sees the count the others left.
 */
export const loginThrottle = pgTable(
  "login_throttle",
  {
    /**
     * `account:<email>`, `address:<network>`, `pair:<json [email, network]>` (failures),
     * `refused:<pair>` (refused tries of one window), `known:<pair>` (the last successful
     * sign-in) or `passed:<pair>` (the network's one try past the account's delay). A network
     * is an IPv4 address or an IPv6 /64 (lib/net/ip-ranges.ts networkOf).
     */
    key: text("key").primaryKey(),
    /** The last counted failure; for `refused:` the window's first refusal; for `known:` the last success; for `passed:` the pass. */
    windowStart: at("window_start").notNull(),
    attempts: integer("attempts").notNull(),
  },
  (t) => [index("login_throttle_window_idx").on(t.windowStart)],
);

export type UserRow = typeof users.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
