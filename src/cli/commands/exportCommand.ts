/**
 * `gmem export FILE [--workspace DIR]`: writes the memory of one workspace (default: the current
 * directory's) — workspace files, research memory, profile, conversation — to FILE in the
 * versioned JSON format of docs/storage.md (no vectors). `gmem import FILE` reads it back.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportMemory } from '../../store/exportImport';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem export FILE [--workspace DIR] [--db PATH|URL] [--scope NAME] [--json]

Writes the memory of the workspace DIR (default: the current directory) to FILE as JSON
(format "gated-memory-export", version 1; vectors are not exported).
  --json   print {"file", "documents", "research_memory", "profile_entries", "conversation_turns"}`;

const OPTIONS = { ...STORE_OPTIONS, workspace: { type: 'string' } } as const;

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length !== 1) throw new UsageError('give one FILE to write');
	const file = resolve(io.cwd, positionals[0]);
	const data = await withStore(values, io, (store) =>
		exportMemory(store.db, [workspaceOf(values.workspace, io)], store.schemaVersion),
	);
	writeFileSync(file, JSON.stringify(data, null, 1) + '\n');
	const counts = {
		documents: data.documents.length,
		research_memory: data.research_memory.length,
		profile_entries: data.profile_entries.length,
		conversation_turns: data.conversation_turns.length,
	};
	if (values.json) io.stdout(JSON.stringify({ file: positionals[0], ...counts }) + '\n');
	else
		io.stdout(
			`exported ${counts.documents} documents, ${counts.research_memory} memories, ${counts.profile_entries} profile entries, ${counts.conversation_turns} turns to ${positionals[0]}\n`,
		);
	return EXIT_OK;
}

export const exportCommand: CliCommand = {
	name: 'export',
	summary: "Write a workspace's memory to a JSON file",
	usage: USAGE,
	run,
};
