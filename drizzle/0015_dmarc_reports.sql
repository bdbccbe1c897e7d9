CREATE TABLE "dmarc_jobs" (
	"project_id" text NOT NULL,
	"message_id" text NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dmarc_jobs_project_id_message_id_pk" PRIMARY KEY("project_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "dmarc_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"source_ip" text NOT NULL,
	"count" integer NOT NULL,
	"disposition" text NOT NULL,
	"dkim_aligned" boolean NOT NULL,
	"spf_aligned" boolean NOT NULL,
	"header_from" text,
	"envelope_from" text,
	"dkim_domain" text,
	"dkim_result" text,
	"spf_domain" text,
	"spf_result" text
);
--> statement-breakpoint
CREATE TABLE "dmarc_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"domain" text NOT NULL,
	"org_name" text NOT NULL,
	"report_id" text NOT NULL,
	"email" text,
	"begin_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"policy" text,
	"pct" integer,
	"message_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dmarc_source_names" (
	"ip" text PRIMARY KEY NOT NULL,
	"name" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dmarc_jobs" ADD CONSTRAINT "dmarc_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_records" ADD CONSTRAINT "dmarc_records_report_id_dmarc_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."dmarc_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dmarc_jobs_due_idx" ON "dmarc_jobs" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "dmarc_records_report_idx" ON "dmarc_records" USING btree ("report_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dmarc_reports_once_idx" ON "dmarc_reports" USING btree ("project_id","domain","org_name","report_id");--> statement-breakpoint
CREATE INDEX "dmarc_reports_domain_idx" ON "dmarc_reports" USING btree ("project_id","domain","begin_at");