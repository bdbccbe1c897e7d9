CREATE TABLE "erased_messages" (
	"project_id" text NOT NULL,
	"message_id" text NOT NULL,
	"address_hash" text NOT NULL,
	"deleted" boolean NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erased_messages_project_id_message_id_address_hash_pk" PRIMARY KEY("project_id","message_id","address_hash")
);
--> statement-breakpoint
ALTER TABLE "erased_messages" ADD CONSTRAINT "erased_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;