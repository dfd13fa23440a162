/**
 * A changed ignore file (`.gitignore` at any depth, `.git/info/exclude`) in a watcher batch and
 * what re-evaluating the folder it governs did — kept apart from reindexPaths.ts so the extension
 * host can word it without bundling the indexer.
 */

/** A changed ignore file and what re-evaluating the folder it governs did. */
export interface IgnoreRulesChange {
	/** The workspace folder (absolute). */
	root: string;
	/** The ignore file, root-relative: `src/.gitignore`, `.git/info/exclude`. */
	rules: string;
	/** The folder it governs, root-relative ('' = the whole workspace folder). */
	folder: string;
	/** Stored files removed because the rules now exclude them. */
	removed: number;
	/** Files under the folder indexed that were not stored before (no longer excluded, or new). */
	indexed: number;
}

/** What re-evaluating the folder of a changed ignore file did, in words (the watcher's log and status bar). */
export function ignoreChangeText(c: IgnoreRulesChange): string {
	const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
	const parts = [
		c.removed ? `removed ${files(c.removed)} now ignored` : '',
		c.indexed ? `indexed ${files(c.indexed)} no longer ignored` : '',
	].filter(Boolean);
	return `${parts.join(', ') || 'no indexed file changed'} by ${c.rules}`;
}
