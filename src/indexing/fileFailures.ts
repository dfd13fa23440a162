/**
 * Files left out because something was wrong with them (a stray NUL, a FIFO, a refused write…)
 * rather than by a rule (ignored, secret, binary): counted in `skipped` like every skip, and also
 * listed with path and detail so the log can say which file and why.
 */
/** A file left out because something was wrong with it (not by a rule): logged with its path. */
export interface FileFailure {
	path: string;
	reason: string;
	detail: string;
}

/** The skip reasons that are a file's failure rather than a rule (ignored, secret, binary…). */
export const FAILURE_REASONS: ReadonlySet<string> = new Set([
	'nul',
	'unreadable',
	'not_regular',
	'encoding',
	'chunker_error',
	'write_error',
	'symlink-outside',
]);

/** At most this many failures are listed per run (the counts in `skipped` stay complete). */
export const MAX_LISTED_FAILURES = 100;

/** Adds `f` to `list` if its reason is a failure and the list has room. */
export function noteFailure(list: FileFailure[], f: FileFailure): void {
	if (FAILURE_REASONS.has(f.reason) && list.length < MAX_LISTED_FAILURES) list.push(f);
}

/** One log line for a failure: `src/x.log: nul (NUL at character 9000)`. */
export function failureLine(f: FileFailure): string {
	return `${f.path || '.'}: ${f.reason}${f.detail ? ` (${f.detail})` : ''}`;
}
