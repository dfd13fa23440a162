/**
 * Exclude settings → the walk's exclude globs (gitignore syntax, matched by the `ignore`
 * package), and the host-side filter that drops file-watcher events the walk would never index.
 * VS Code globs (`files.exclude`, `search.exclude`, `files.watcherExclude`) are objects of
 * glob → `true`/`false`/`{ when }`; only `true` entries exclude. A `{ when: "$(basename).ts" }`
 * sibling clause needs a look at each file's neighbours, which a path glob cannot express, so
 * those entries are left out (counted, and logged by the caller) rather than over-excluding.
 * No `vscode` import: unit-tested.
 */
import ignore, { type Ignore } from 'ignore';
import { isSecretFile } from '../../indexing/secretFiles';
import { expandBraces, isExcludedDir, isGeneratedFile } from '../../indexing/walkIgnore';

/** The raw setting values (whatever the user wrote; validated here). */
export interface ExcludeSettings {
	filesExclude?: unknown;
	searchExclude?: unknown;
	indexExclude?: unknown;
}

/** The walk's excludes, plus entries that could not be used and why. */
export interface ExcludeGlobs {
	globs: string[];
	/** `when` clauses and invalid entries, for the log. */
	ignored: string[];
}

/**
 * One VS Code glob (relative to the workspace folder) as a gitignore pattern. A VS Code glob
 * without `/` (other than a leading `**​/`) matches only at the folder's root, whereas the same
 * text in gitignore matches at any depth: anchor it with a leading `/`.
 */
export function vscodeGlobToGitignore(glob: string): string | null {
	let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
	if (!g || g.startsWith('!') || /^[a-zA-Z]:\//.test(g)) return null;
	if (g.startsWith('/')) return null; // an absolute path: not relative to a folder
	g = g.replace(/\/+$/, '');
	if (g.startsWith('**/') || g === '**') return g;
	return `/${g}`;
}

function globObject(value: unknown, name: string, into: ExcludeGlobs): void {
	if (value === undefined || value === null) return;
	if (typeof value !== 'object' || Array.isArray(value)) {
		into.ignored.push(`${name}: not a glob object`);
		return;
	}
	for (const [glob, on] of Object.entries(value as Record<string, unknown>)) {
		if (on === true) {
			const g = vscodeGlobToGitignore(glob);
			if (g) into.globs.push(g);
			else into.ignored.push(`${name}: ${glob} (not a folder-relative glob)`);
		} else if (on && typeof on === 'object') into.ignored.push(`${name}: ${glob} (a "when" clause is not evaluated)`);
	}
}

/** `files.exclude` + `search.exclude` + `gatedMemory.index.exclude` → the walk's excludes (deduplicated). */
export function excludesFromSettings(s: ExcludeSettings): ExcludeGlobs {
	const out: ExcludeGlobs = { globs: [], ignored: [] };
	globObject(s.filesExclude, 'files.exclude', out);
	globObject(s.searchExclude, 'search.exclude', out);
	if (Array.isArray(s.indexExclude)) {
		for (const glob of s.indexExclude) {
			const g = typeof glob === 'string' ? vscodeGlobToGitignore(glob) : null;
			if (g) out.globs.push(g);
			else out.ignored.push(`gatedMemory.index.exclude: ${String(glob)} (not a folder-relative glob)`);
		}
	} else if (s.indexExclude !== undefined && s.indexExclude !== null)
		out.ignored.push('gatedMemory.index.exclude: not an array of globs');
	out.globs = [...new Set(out.globs)];
	return out;
}

/**
 * A cheap host-side pre-filter for watcher events (no file reads): paths in vendored folders,
 * secrets, lock files, the user's excludes and `files.watcherExclude` are dropped before they
 * reach the worker. `.gitignore` rules and the size cap are applied by the worker, which removes
 * any stored file that has become excluded.
 */
export class WatchFilter {
	private readonly rules: Ignore;

	constructor(excludes: readonly string[], watcherExclude: unknown = undefined) {
		const w: ExcludeGlobs = { globs: [], ignored: [] };
		globObject(watcherExclude, 'files.watcherExclude', w);
		this.rules = ignore().add([...excludes, ...w.globs].flatMap((g) => expandBraces(g)));
	}

	/** Whether a folder-relative path (`/`-separated) is worth sending to the worker. */
	wants(relPath: string): boolean {
		if (!relPath || relPath.startsWith('..')) return false;
		const parts = relPath.split('/');
		if (parts.slice(0, -1).some(isExcludedDir)) return false;
		if (isSecretFile(relPath) || isGeneratedFile(relPath)) return false;
		return !this.rules.ignores(relPath);
	}
}
