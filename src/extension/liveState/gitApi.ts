/**
 * The slice of the built-in git extension's API (`vscode.git` exports, `getAPI(1)`; its git.d.ts)
 * that live state and the Stage/Revert/Commit actions use, feature-detected: an editor without the
 * extension, or with it disabled, gives null and the trace says "no git extension".
 */
import * as vscode from 'vscode';

export interface GitChange {
	readonly uri: vscode.Uri;
	/** git.d.ts `Status` enum (numbers): 0 INDEX_MODIFIED … 7 UNTRACKED, 5 MODIFIED, 6 DELETED. */
	readonly status: number;
}

export interface GitBranch {
	readonly name?: string;
	readonly commit?: string;
	readonly ahead?: number;
	readonly behind?: number;
	readonly upstream?: { readonly remote: string; readonly name: string };
}

export interface GitCommit {
	readonly hash: string;
	readonly message: string;
	readonly authorName?: string;
	readonly authorDate?: Date;
}

export interface GitRepository {
	readonly rootUri: vscode.Uri;
	readonly state: {
		readonly HEAD: GitBranch | undefined;
		readonly workingTreeChanges: readonly GitChange[];
		readonly indexChanges: readonly GitChange[];
		readonly untrackedChanges?: readonly GitChange[];
	};
	/** The whole working tree against the index (`cached`: the index against HEAD) as one unified diff: one git process. */
	diff?(cached?: boolean): Promise<string>;
	diffWithHEAD(path: string): Promise<string>;
	diffIndexWithHEAD(path: string): Promise<string>;
	log(options?: { maxEntries?: number }): Promise<GitCommit[]>;
	add(paths: string[]): Promise<void>;
	/** Discards working-tree changes (tracked: checkout; untracked: delete) — the SCM view's "Discard Changes". */
	clean(paths: string[]): Promise<void>;
	commit(message: string, opts?: { all?: boolean }): Promise<void>;
	status(): Promise<void>;
	blame?(path: string): Promise<string>;
}

export interface GitApi {
	readonly state: 'uninitialized' | 'initialized';
	readonly repositories: readonly GitRepository[];
	onDidChangeState?(listener: (state: 'uninitialized' | 'initialized') => void): vscode.Disposable;
	getRepository(uri: vscode.Uri): GitRepository | null;
}

/** The git API, activating the built-in extension if needed; null when there is none or it is disabled. */
export async function gitApi(): Promise<GitApi | null> {
	const ext = vscode.extensions.getExtension<{ enabled?: boolean; getAPI(version: 1): GitApi }>('vscode.git');
	if (!ext) return null;
	const exports = ext.isActive ? ext.exports : await ext.activate();
	if (!exports || exports.enabled === false || typeof exports.getAPI !== 'function') return null;
	return exports.getAPI(1);
}

/** Waits (within the caller's signal) for the API to finish discovering repositories. */
export async function initialized(api: GitApi, signal: AbortSignal): Promise<void> {
	if (api.state === 'initialized' || !api.onDidChangeState) return;
	await new Promise<void>((resolve) => {
		const sub = api.onDidChangeState!((s) => {
			if (s === 'initialized') done();
		});
		const done = () => {
			sub.dispose();
			signal.removeEventListener('abort', done);
			resolve();
		};
		signal.addEventListener('abort', done, { once: true });
	});
}

/** The repository of the active file, else the first one in the workspace. */
export function repositoryFor(api: GitApi): GitRepository | null {
	const active = vscode.window.activeTextEditor?.document.uri;
	return (active && active.scheme === 'file' ? api.getRepository(active) : null) ?? api.repositories[0] ?? null;
}
