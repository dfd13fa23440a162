/**
 * Migration 4: memory you can trust (#19). Version 3 is another branch's (a symbol table); the
 * runner applies every listed version above the database's, so 4 lands whether or not 3 exists.
 *
 * - `memory_proposals`: in `gatedMemory.memory.writes: confirm` each write the decision proposes
 *   waits here (pending) until the user approves, edits or discards it; nothing reaches research
 *   memory or the profile before that. Decided rows stay as the record of what was approved
 *   (with the text as stored) or discarded.
 * - `memory_anchors`: the code a memory cites (file, symbol, line range, the chunk's content hash
 *   when the memory was written), checked before the memory is used (staleness).
 * - `research_memory.last_recalled_at`: when recall last used a memory (decay demotes memories
 *   not recalled for N days; nothing is deleted).
 */

export const SCHEMA_004 = `
CREATE TABLE memory_proposals (
	id bigserial PRIMARY KEY,
	scope text NOT NULL DEFAULT 'local',
	workspace_id text NOT NULL,
	conversation_id text NOT NULL,
	turn_id text NOT NULL,
	tier text NOT NULL CHECK (tier IN ('research', 'profile')),
	trigger text NOT NULL,
	-- the user's message and the reply, as the write path would have received them (secrets redacted)
	question text NOT NULL,
	answer text NOT NULL DEFAULT '',
	-- what the chip shows and what is stored when approved unedited
	text text NOT NULL,
	status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'discarded')),
	-- the text actually stored on approve (the edit, when edited)
	stored_text text,
	-- what the write path reported (doc id, profile key), for the trace and Inspect Memory State
	outcome text,
	created_at timestamptz NOT NULL DEFAULT now(),
	decided_at timestamptz
);
CREATE INDEX memory_proposals_pending ON memory_proposals (scope, workspace_id, created_at) WHERE status = 'pending';

CREATE TABLE memory_anchors (
	id bigserial PRIMARY KEY,
	scope text NOT NULL DEFAULT 'local',
	workspace_id text NOT NULL,
	memory_id bigint NOT NULL REFERENCES research_memory (id) ON DELETE CASCADE,
	-- the memory's chunk document id, so recall's hits find their anchors in one index lookup
	doc_id text NOT NULL,
	path text NOT NULL,
	symbol text,
	start_line int,
	end_line int,
	content_hash text,
	-- 'current' | 'stale' | 'kept' (the user reviewed it and kept it as is)
	review text NOT NULL DEFAULT 'current' CHECK (review IN ('current', 'stale', 'kept')),
	checked_at timestamptz
);
CREATE INDEX memory_anchors_doc ON memory_anchors (scope, workspace_id, doc_id);
CREATE INDEX memory_anchors_memory ON memory_anchors (memory_id);

ALTER TABLE research_memory ADD COLUMN last_recalled_at timestamptz;
`;
