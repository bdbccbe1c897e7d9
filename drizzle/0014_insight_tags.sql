CREATE TABLE "insight_tag_facts" (
	"message_id" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"project_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"opened" boolean NOT NULL,
	"clicked" boolean NOT NULL,
	CONSTRAINT "insight_tag_facts_message_id_name_value_pk" PRIMARY KEY("message_id","name","value")
);
--> statement-breakpoint
CREATE TABLE "insight_tag_hourly" (
	"project_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insight_tag_hourly_project_id_hour_name_value_pk" PRIMARY KEY("project_id","hour","name","value")
);
--> statement-breakpoint
CREATE TABLE "insight_tag_keys" (
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "insight_tag_keys_project_id_name_value_pk" PRIMARY KEY("project_id","name","value")
);
--> statement-breakpoint
ALTER TABLE "insight_tag_facts" ADD CONSTRAINT "insight_tag_facts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_tag_hourly" ADD CONSTRAINT "insight_tag_hourly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_tag_keys" ADD CONSTRAINT "insight_tag_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insight_tag_facts_project_at_idx" ON "insight_tag_facts" USING btree ("project_id","at");