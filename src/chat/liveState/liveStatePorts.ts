/**
 * The live-state ports (issue 14): one `LiveStateSource` per kind of editor state (diagnostics,
 * editor/selection, git, symbols, terminal), behind one host object, so the pipeline, the tests
 * and the CLI never import `vscode`. src/extension/liveState adapts VS Code to these; a headless
 * host has none and says so.
 */
import type { LiveSource, LiveSourcePlan } from '../../core/liveState/liveSources';
import type { Thresholds } from '../../core/thresholds';

/** What a source is asked for on one turn. */
export interface LiveRequest {
	utterance: string;
	plan: LiveSourcePlan;
	/** Items the source may return (`live_source_max_items`); the gatherer enforces it again. */
	maxItems: number;
	/** Characters the source may return in total (`live_source_max_chars`); enforced again. */
	maxChars: number;
	thresholds: Thresholds;
}

/** One piece of live state, quoted as evidence under its citation. */
export interface LiveItem {
	/** `Problems: src/billing.ts:2`, `git diff src/config.ts`, `Selection: src/a.ts:10-14`. */
	citation: string;
	/** Workspace-relative, `/`-separated; null for state without a file (branch, terminal). */
	path: string | null;
	startLine: number | null;
	endLine: number | null;
	text: string;
}

/** A source's answer: what it read, or why it could not. */
export type LiveRead =
	| {
			status: 'ok';
			items: LiveItem[];
			/** What was read, in words ("3 diagnostics in 2 files, active file first"). */
			read: string;
			/** Which service answered ("language server", "index fallback", "git extension"). */
			via?: string;
			/** Items there were before the source's own cap (for "20 of 57"). */
			total?: number;
	  }
	| { status: 'unavailable'; reason: string };

export interface LiveStateSource {
	readonly source: LiveSource;
	/** Must honour `signal` (the turn's Stop and the source's time budget); may throw (the gatherer turns it into a trace note). */
	read(request: LiveRequest, signal: AbortSignal): Promise<LiveRead>;
}

/** Everything live a host offers. */
export interface LiveStateHost {
	sources: Partial<Record<LiveSource, LiveStateSource>>;
	/** Set when the host has no live state at all (the CLI): the reason, said once in the trace. */
	unavailable?: string;
	/** The workspace's package.json scripts, for proposing the exact test/build command (null: none). */
	scripts?: () => Promise<Record<string, string> | null>;
}

/** The host of `gmem` and of any pipeline run without an editor. */
export const HEADLESS_LIVE_STATE: LiveStateHost = {
	sources: {},
	unavailable:
		'no live state in the CLI (no editor: diagnostics, selection, git, language servers and terminal are not read)',
};
