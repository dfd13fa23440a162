/**
 * Is a memory's cited code still what it was? A pure function of the anchor stored when the
 * memory was written (file, symbol, line range, the chunk's content hash then) and the workspace
 * tier's current chunks for that file or symbol (src/store/anchorRepo.ts reads them):
 *
 * - `current`: a chunk of the same file still has the same content hash at the same lines;
 * - `moved`: the same content (hash) is found at other lines or in another file → re-anchored;
 * - `changed`: the symbol is still in the file but its content differs → stale;
 * - `gone`: neither the content nor the symbol is found (renamed, deleted, file removed) → stale.
 *
 * A chunk's hash covers its text, so a rename changes it: a renamed function is `gone` (the memory
 * names the old symbol), which is what the user should review. No I/O.
 */

/** What a memory cites, as stored at write time. */
export interface CodeAnchor {
	path: string;
	symbol: string | null;
	startLine: number | null;
	endLine: number | null;
	/** The cited chunk's content hash at write time (null: only the file and lines are known). */
	contentHash: string | null;
}

/** A workspace-tier chunk as it is now. */
export interface CurrentChunk {
	path: string;
	symbol: string | null;
	startLine: number | null;
	endLine: number | null;
	contentHash: string;
}

export type AnchorStatus = 'current' | 'moved' | 'changed' | 'gone';

export interface AnchorCheck {
	status: AnchorStatus;
	/** Where the cited code is now (`current`, `moved`); for `changed`, the symbol's new place. */
	now: CurrentChunk | null;
	/** Plain words for the trace: "src/a.ts parseConfig changed since the memory was written". */
	reason: string;
}

/** Stale = not to be used as current. */
export function isStale(status: AnchorStatus): boolean {
	return status === 'changed' || status === 'gone';
}

function where(a: { path: string; symbol: string | null; startLine: number | null; endLine: number | null }): string {
	const lines =
		a.startLine !== null
			? `:${a.startLine}${a.endLine !== null && a.endLine !== a.startLine ? `-${a.endLine}` : ''}`
			: '';
	return `${a.path}${lines}${a.symbol ? ` (${a.symbol})` : ''}`;
}

/** A chunk's symbol field may list several merged definitions ("parseConfig, loadConfig"). */
export function symbolsOf(symbol: string | null): string[] {
	return symbol === null
		? []
		: symbol
				.split(',')
				.map((x) => x.trim())
				.filter(Boolean);
}

/** True when every symbol the anchor names is among the chunk's. */
function holdsSymbols(anchorSymbols: readonly string[], c: CurrentChunk): boolean {
	const names = symbolsOf(c.symbol);
	return anchorSymbols.some((s) => names.includes(s));
}

function overlaps(a: CodeAnchor, c: CurrentChunk): boolean {
	if (a.startLine === null || c.startLine === null) return true;
	const aEnd = a.endLine ?? a.startLine;
	const cEnd = c.endLine ?? c.startLine;
	return c.startLine <= aEnd && a.startLine <= cEnd;
}

/** Checks one anchor against the current chunks of its file and of its symbol (any file). */
export function checkAnchor(anchor: CodeAnchor, current: readonly CurrentChunk[]): AnchorCheck {
	const inFile = current.filter((c) => c.path === anchor.path);
	if (anchor.contentHash !== null) {
		const same = current.filter((c) => c.contentHash === anchor.contentHash);
		const here = same.find(
			(c) => c.path === anchor.path && c.startLine === anchor.startLine && c.endLine === anchor.endLine,
		);
		if (here) return { status: 'current', now: here, reason: `${where(anchor)} unchanged` };
		// Same content elsewhere: in the same file first (lines shifted), then another file (moved or renamed file).
		const moved = same.find((c) => c.path === anchor.path) ?? same[0];
		if (moved)
			return { status: 'moved', now: moved, reason: `${where(anchor)} moved to ${where(moved)} (re-anchored)` };
	}
	const wanted = symbolsOf(anchor.symbol);
	const missing = wanted.filter((w) => !inFile.some((c) => symbolsOf(c.symbol).includes(w)));
	const bySymbol = wanted.length && !missing.length ? inFile.filter((c) => holdsSymbols(wanted, c)) : [];
	if (bySymbol.length) {
		if (anchor.contentHash === null)
			return {
				status: 'current',
				now: bySymbol[0],
				reason: `${where(anchor)} still there (no content hash to compare)`,
			};
		return { status: 'changed', now: bySymbol[0], reason: `${where(anchor)} changed since the memory was written` };
	}
	if (!inFile.length)
		return {
			status: 'gone',
			now: null,
			reason: `${anchor.path} is no longer in the index (deleted, moved or excluded)`,
		};
	if (missing.length)
		return {
			status: 'gone',
			now: null,
			reason: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} no longer in ${anchor.path} (renamed or removed)`,
		};
	// No symbol: the chunk now covering the cited lines decides.
	const covering = inFile.find((c) => overlaps(anchor, c));
	if (!covering)
		return { status: 'gone', now: null, reason: `${where(anchor)} no longer exists (the file is shorter)` };
	return anchor.contentHash === null
		? { status: 'current', now: covering, reason: `${where(anchor)} still there (no content hash to compare)` }
		: { status: 'changed', now: covering, reason: `${where(anchor)} changed since the memory was written` };
}

/** A memory's verdict from all its anchors: stale if any is; moved if any moved; else current. */
export function memoryVerdict(checks: readonly AnchorCheck[]): AnchorStatus {
	if (checks.some((c) => c.status === 'gone')) return 'gone';
	if (checks.some((c) => c.status === 'changed')) return 'changed';
	if (checks.some((c) => c.status === 'moved')) return 'moved';
	return 'current';
}
