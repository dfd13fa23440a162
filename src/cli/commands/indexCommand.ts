/**
 * `gmem index DIR [--workspace DIR]`: indexes a folder into the workspace tier (CONTRACT.md):
 * structure-aware chunks, secrets never indexed, incremental by content hash. Progress goes to
 * stderr; `--json` prints `{"root", "files_indexed", "files_unchanged", "files_removed", "chunks",
 * "skipped": {reason: count}, "ms"}` on stdout.
 */
import { resolve } from 'node:path';
import { failureLine } from '../../indexing/fileFailures';
import { Indexer, type FolderIndexResult, type IndexProgress } from '../../indexing/indexer';
import { parseCommandArgs } from '../args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { loadConfig } from './gateCommand';
import { openCliEmbedder, STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem index DIR [--workspace DIR] [--exclude GLOB]... [--follow-symlinks]
                  [--embedder builtin|minilm|hashing|none] [--config FILE] [--db PATH|URL] [--scope NAME] [--json]

Indexes the files under DIR (paths relative to DIR) into the workspace tier. Honours .gitignore
files (nested too) and .git/info/exclude; skips dependency and build folders, binary files, files
over index_max_file_bytes, and secret files (.env*, keys, credentials); redacts secrets found in
text. Re-running only re-reads changed files and re-embeds changed chunks; deleted files are removed.
  --workspace DIR   the workspace id the rows carry (default: DIR itself)
  --exclude GLOB    also leave out paths matching GLOB (gitignore syntax; repeatable)
  --embedder X      the vector arm's model (default builtin, as in the extension, or $GMEM_EMBEDDER);
                    hashing is a TEST embedder (not semantic), none stores no vectors
  --config FILE     threshold overrides, e.g. {"index_chunk_max_lines": 40}
Output (--json): {"root", "files_indexed", "files_unchanged", "files_removed", "chunks", "skipped", "ms"}`;

const OPTIONS = {
	...STORE_OPTIONS,
	workspace: { type: 'string' },
	exclude: { type: 'string', multiple: true },
	'follow-symlinks': { type: 'boolean', default: false },
	embedder: { type: 'string' },
	config: { type: 'string' },
} as const;

/** A progress writer for stderr that redraws one line at most every 200 ms. */
function progressLine(io: CliIo): (p: IndexProgress) => void {
	let last = 0;
	return (p) => {
		const now = Date.now();
		if (p.phase === 'index' && now - last < 200) return;
		last = now;
		const total = p.files_total === null ? '' : `/${p.files_total}`;
		io.stderr(
			`\rgmem index: ${p.phase} ${p.files_done}${total} files, ${p.files_indexed} indexed, ${p.files_unchanged} unchanged, ${p.chunks} chunks   `,
		);
	};
}

/** The CONTRACT.md JSON object of one run (the root as given, resolved). */
export function indexJson(r: FolderIndexResult): Record<string, unknown> {
	return {
		root: r.root,
		files_indexed: r.files_indexed,
		files_unchanged: r.files_unchanged,
		files_removed: r.files_removed,
		chunks: r.chunks,
		skipped: r.skipped,
		ms: r.ms,
	};
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length !== 1) throw new UsageError('expected exactly one DIR');
	const root = resolve(io.cwd, positionals[0]);
	const thresholds = loadConfig(values.config, io.cwd);
	const { embedder, dispose } = await openCliEmbedder(values.embedder, io);
	const workspace = workspaceOf(values.workspace ?? root, io);
	const result = await withStore(values, io, async (store) => {
		const indexer = new Indexer({
			db: store.db,
			embedder,
			thresholds,
			excludes: values.exclude ?? [],
			followSymlinks: values['follow-symlinks'],
			workspaceIdOf: () => workspace,
		});
		const [r] = await indexer.indexFolders([root], { onProgress: progressLine(io) });
		return r;
	}).finally(dispose);
	io.stderr('\n');
	// Which file and why, on stderr: `skipped` has the counts, this is what a user needs to act on.
	for (const f of result.failures) io.stderr(`gmem index: skipped ${failureLine(f)}\n`);
	if (values.json) io.stdout(JSON.stringify(indexJson(result)) + '\n');
	else {
		const skipped =
			Object.entries(result.skipped)
				.map(([k, n]) => `${k} ${n}`)
				.join(', ') || 'none';
		io.stdout(
			`indexed ${result.files_indexed} files (${result.chunks} chunks), ${result.files_unchanged} unchanged, ${result.files_removed} removed in ${result.ms} ms\n`,
		);
		io.stdout(`skipped: ${skipped}\nembedded ${result.embedded} chunks, reused ${result.reused} stored vectors\n`);
	}
	return EXIT_OK;
}

export const indexCommand: CliCommand = {
	name: 'index',
	summary: 'Index a workspace folder (structure-aware chunks, incremental)',
	usage: USAGE,
	run,
};
