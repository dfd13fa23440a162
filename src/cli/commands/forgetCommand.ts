/**
 * `gmem forget ID | --path PATH | --workspace DIR | --all`: removes a document, a file, a whole
 * workspace or everything from every table and index (chunks, statistics, research memory,
 * profile, conversation). ID and --path apply to the current directory's workspace unless
 * --workspace is also given.
 */
import { forget, type ForgetTarget } from '../../store/forget';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem forget ID | --path PATH | --workspace DIR | --all [--db PATH|URL] [--scope NAME] [--json]

Removes rows from every table and index. ID and --path are looked up in the workspace of the
current directory (or of --workspace DIR); --workspace DIR alone forgets that whole workspace.
  --json   print {"removed": {"chunks", "research_memory", "profile_entries", "conversation_turns"}}`;

const OPTIONS = {
	...STORE_OPTIONS,
	path: { type: 'string' },
	workspace: { type: 'string' },
	all: { type: 'boolean', default: false },
} as const;

function targetOf(
	values: { path?: string; workspace?: string; all: boolean },
	positionals: string[],
	io: CliIo,
): ForgetTarget {
	const chosen = [positionals.length > 0, values.path !== undefined, values.all].filter(Boolean).length;
	if (positionals.length > 1) throw new UsageError('give at most one ID');
	if (chosen > 1) throw new UsageError('give one of ID, --path or --all');
	if (values.all) {
		if (values.workspace) throw new UsageError('--all cannot be combined with --workspace');
		return { kind: 'all' };
	}
	const workspaceId = workspaceOf(values.workspace, io);
	if (positionals.length) return { kind: 'document', workspaceId, docId: positionals[0] };
	if (values.path !== undefined) return { kind: 'path', workspaceId, path: values.path.replace(/\\/g, '/') };
	if (values.workspace) return { kind: 'workspace', workspaceId };
	throw new UsageError('nothing to forget: give ID, --path PATH, --workspace DIR or --all');
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	const target = targetOf(values, positionals, io);
	const removed = await withStore(values, io, (store) => forget(store.db, target));
	if (values.json) io.stdout(JSON.stringify({ removed }) + '\n');
	else
		io.stdout(
			`forgot ${removed.chunks} chunks, ${removed.research_memory} memories, ${removed.profile_entries} profile entries, ${removed.conversation_turns} turns\n`,
		);
	return EXIT_OK;
}

export const forgetCommand: CliCommand = {
	name: 'forget',
	summary: 'Remove a document, file, workspace or everything',
	usage: USAGE,
	run,
};
