/**
 * `gmem import FILE [--workspace DIR]`: reads a `gmem export` file back. Every row is validated
 * before anything is written and the import is one transaction, so a bad file changes nothing
 * (exit 1, the first bad field named); importing the same file again adds nothing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExportFormatError, importMemory, parseMemoryExport } from '../../store/exportImport';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem import FILE [--workspace DIR] [--db PATH|URL] [--scope NAME] [--json]

Imports a file written by gmem export (or the extension's Export Memory). With --workspace DIR
the rows go into that workspace (the file must hold one workspace); without it, into the
workspaces the file names.
  --json   print {"imported": {"documents", "documents_unchanged", "chunks", "research_memory", "profile_entries", "conversation_turns"}}`;

const OPTIONS = { ...STORE_OPTIONS, workspace: { type: 'string' } } as const;

function readExport(file: string) {
	try {
		return parseMemoryExport(readFileSync(file, 'utf8'));
	} catch (e) {
		const why = e instanceof ExportFormatError ? e.message : (e as Error).message;
		throw new UsageError(`${file} was not imported (nothing changed): ${why}`);
	}
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length !== 1) throw new UsageError('give one FILE to import');
	const parsed = readExport(resolve(io.cwd, positionals[0]));
	const workspaceId = values.workspace === undefined ? undefined : workspaceOf(values.workspace, io);
	const imported = await withStore(values, io, async (store) => {
		try {
			return await importMemory(store.db, parsed, { workspaceId });
		} catch (e) {
			if (e instanceof ExportFormatError)
				throw new UsageError(`${positionals[0]} was not imported (nothing changed): ${e.message}`);
			throw e;
		}
	});
	if (values.json) io.stdout(JSON.stringify({ imported }) + '\n');
	else
		io.stdout(
			`imported ${imported.documents} documents (${imported.chunks} chunks; ${imported.documents_unchanged} unchanged), ${imported.research_memory} memories, ${imported.profile_entries} new profile entries, ${imported.conversation_turns} turns\n`,
		);
	return EXIT_OK;
}

export const importCommand: CliCommand = {
	name: 'import',
	summary: 'Read memory from a gmem export file',
	usage: USAGE,
	run,
};
