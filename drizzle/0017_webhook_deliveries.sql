CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"seq" bigserial NOT NULL,
	"webhook_id" text,
	"verified" boolean NOT NULL,
	"signature" text NOT NULL,
	"event_type" text,
	"message_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"body" text,
	"body_cut" boolean DEFAULT false NOT NULL,
	"body_bytes" integer
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_project_idx" ON "webhook_deliveries" USING btree ("project_id","received_at","seq");