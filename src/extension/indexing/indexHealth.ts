/**
 * The index's health as the status bar, the progress notification and Inspect Memory State show
 * it, and the pure text functions over it (no `vscode`, so they are unit-tested).
 */
import type { IndexHealthView } from '../../core/memoryPanelProtocol';
import type { IndexProgress } from '../../indexing/indexer';

/** A snapshot of the workspace index of this window: the shape the memory panel shows. */
export type IndexHealth = IndexHealthView;

/** The status before anything is known: never indexed. */
export const NOT_INDEXED: IndexHealth = {
	state: 'idle',
	percent: null,
	files: 0,
	chunks: 0,
	skipped: {},
	lastRun: null,
	lastError: null,
};

/** The status-bar label. Restricted Mode says so (as the welcome view does) rather than hiding. */
export function statusBarText(h: IndexHealth, restricted: boolean): string {
	if (restricted) return '$(shield) Gated Memory: restricted';
	if (h.state === 'indexing') return `$(database) Gated Memory: indexing${h.percent === null ? '…' : ` ${h.percent}%`}`;
	if (h.state === 'error') return '$(warning) Gated Memory: index errors';
	if (h.lastRun === null) return '$(database) Gated Memory: not indexed';
	return `$(database) Gated Memory: up to date · ${h.chunks.toLocaleString('en-US')} chunks`;
}

/** The status-bar tooltip: the counts behind the label and what a click does. */
export function statusBarTooltip(h: IndexHealth, restricted: boolean, now: number): string {
	if (restricted)
		return 'Restricted Mode: Gated Memory does not index this workspace until you trust it. Click: Inspect Memory State.';
	const lines = [
		`Workspace index: ${h.files.toLocaleString('en-US')} files, ${h.chunks.toLocaleString('en-US')} chunks`,
	];
	lines.push(
		h.lastRun === null
			? 'Never indexed in this workspace: run "Gated Memory: Index Workspace".'
			: `Last updated ${ago(now - h.lastRun)}`,
	);
	const skipped = Object.entries(h.skipped).filter(([, n]) => n > 0);
	if (skipped.length) lines.push(`Skipped: ${skipped.map(([r, n]) => `${n} ${r}`).join(', ')}`);
	if (h.lastError) lines.push(`Last error: ${h.lastError}`);
	lines.push('Click: Inspect Memory State');
	return lines.join('\n');
}

function ago(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return `${s} s ago`;
	if (s < 3600) return `${Math.round(s / 60)} min ago`;
	return `${Math.round(s / 3600)} h ago`;
}

/** Percent of files done, once the walk has counted them. */
export function percentDone(p: IndexProgress): number | null {
	if (p.phase === 'done') return 100;
	if (p.files_total === null || p.phase === 'walk') return null;
	if (p.files_total === 0) return 100;
	return Math.min(100, Math.floor((p.files_done / p.files_total) * 100));
}

/**
 * Seconds left at the rate so far, or null while too little is known (the first files are not
 * representative: unchanged files take a stat, new ones a parse and an embedding).
 */
export function etaSeconds(filesDone: number, filesTotal: number | null, elapsedMs: number): number | null {
	if (filesTotal === null || filesDone < 5 || elapsedMs < 1000 || filesDone >= filesTotal) return null;
	return Math.ceil(((filesTotal - filesDone) * elapsedMs) / filesDone / 1000);
}

/** "3 s left", "about 2 min left". */
export function etaText(seconds: number): string {
	return seconds < 90 ? `${seconds} s left` : `about ${Math.round(seconds / 60)} min left`;
}

/** The progress notification's message: files, chunks and an ETA. */
export function progressMessage(p: IndexProgress, elapsedMs: number): string {
	if (p.phase === 'walk') return 'listing files…';
	if (p.phase === 'remove') return `removing files that disappeared… (${p.chunks.toLocaleString('en-US')} chunks)`;
	const total = p.files_total === null ? '' : ` of ${p.files_total.toLocaleString('en-US')}`;
	const eta = etaSeconds(p.files_done, p.files_total, elapsedMs);
	return `${p.files_done.toLocaleString('en-US')}${total} files, ${p.chunks.toLocaleString('en-US')} chunks${eta === null ? '' : ` — ${etaText(eta)}`}`;
}
