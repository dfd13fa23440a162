/**
 * Git through the built-in git extension's API (never a shell): branch, ahead/behind, status
 * (staged, unstaged, untracked), the diff of each changed file (working tree against HEAD, or the
 * index for staged-only files), the file the turn names first, and the recent log when the turn
 * asks about commits, the branch or release notes.
 */
import * as vscode from 'vscode';
import type { LiveItem, LiveRead, LiveRequest, LiveStateSource } from '../../chat/liveState/liveStatePorts';
import { gitApi, initialized, repositoryFor, type GitChange, type GitRepository } from './gitApi';
import { splitUnifiedDiff } from '../../chat/liveState/splitDiff';
import { checkAborted, workspacePath } from './livePaths';

const WANTS_LOG = /\b(commits?|log|history|branch|release notes|changelog|since)\b/i;
const STATUS_WORDS: Record<number, string> = {
	0: 'modified',
	1: 'added',
	2: 'deleted',
	3: 'renamed',
	4: 'copied',
	5: 'modified',
	6: 'deleted',
	7: 'untracked',
	8: 'ignored',
	9: 'intent to add',
};

export class GitSource implements LiveStateSource {
	readonly source = 'git' as const;

	async read(request: LiveRequest, signal: AbortSignal): Promise<LiveRead> {
		const api = await gitApi();
		if (!api) return { status: 'unavailable', reason: 'no git extension (vscode.git is missing or disabled)' };
		await initialized(api, signal);
		checkAborted(signal);
		const repo = repositoryFor(api);
		if (!repo) return { status: 'unavailable', reason: 'no git repository in the workspace' };
		const { HEAD, indexChanges, workingTreeChanges } = repo.state;
		const untracked = repo.state.untrackedChanges ?? workingTreeChanges.filter((c) => c.status === 7);
		const tracked = workingTreeChanges.filter((c) => c.status !== 7);
		const rel = (c: GitChange) => workspacePath(c.uri) ?? vscode.workspace.asRelativePath(c.uri, false);
		const branch = HEAD?.name ?? `detached at ${HEAD?.commit?.slice(0, 8) ?? 'unknown'}`;
		const tracking = HEAD?.upstream
			? ` (tracking ${HEAD.upstream.remote}/${HEAD.upstream.name}: ${HEAD.ahead ?? 0} ahead, ${HEAD.behind ?? 0} behind)`
			: ' (no upstream)';
		const list = (title: string, changes: readonly GitChange[]) =>
			changes.length ? [`${title}:`, ...changes.map((c) => `  ${STATUS_WORDS[c.status] ?? 'changed'}: ${rel(c)}`)] : [];
		const statusText = [
			`On branch ${branch}${tracking}`,
			...list('Staged', indexChanges),
			...list('Not staged', tracked),
			...list('Untracked', untracked),
		];
		if (!indexChanges.length && !tracked.length && !untracked.length)
			statusText.push('Nothing to commit, working tree clean.');
		const items: LiveItem[] = [
			{ citation: 'git status', path: null, startLine: null, endLine: null, text: statusText.join('\n') },
		];

		// Diffs: the named file first, then unstaged, then staged-only files.
		const named = request.plan.file;
		const order = [
			...tracked,
			...indexChanges.filter((c) => !tracked.some((t) => t.uri.toString() === c.uri.toString())),
		];
		order.sort((a, b) => Number(matches(rel(b), named)) - Number(matches(rel(a), named)));
		let diffs = 0;
		const wanted = order.slice(0, request.maxItems - 2);
		const texts = await this.diffs(repo, wanted, tracked, signal);
		for (const change of wanted) {
			const path = rel(change);
			const text = texts.get(change.uri.fsPath);
			if (!text?.trim()) continue;
			const staged = !tracked.includes(change);
			items.push({
				citation: `git diff${staged ? ' --staged' : ''} ${path}`,
				path,
				startLine: null,
				endLine: null,
				text,
			});
			diffs++;
		}
		let commits = 0;
		if (WANTS_LOG.test(request.utterance)) {
			const log = await repo.log({ maxEntries: 10 });
			commits = log.length;
			if (log.length)
				items.push({
					citation: 'git log',
					path: null,
					startLine: null,
					endLine: null,
					text: log
						.map((c) => `${c.hash.slice(0, 8)} ${c.message.split('\n')[0]}${c.authorName ? ` (${c.authorName})` : ''}`)
						.join('\n'),
				});
		}
		const changed = indexChanges.length + tracked.length + untracked.length;
		return {
			status: 'ok',
			items,
			via: 'the git extension API',
			total: 1 + order.length + (commits ? 1 : 0),
			read: `branch ${branch}, ${changed} changed file${changed === 1 ? '' : 's'} (${indexChanges.length} staged, ${tracked.length} unstaged, ${untracked.length} untracked), ${diffs} diff${diffs === 1 ? '' : 's'}${commits ? `, last ${commits} commits` : ''}`,
		};
	}

	/**
	 * Each wanted file's diff: two git processes for the whole tree (`diff()` unstaged, `diff(true)`
	 * staged) split per file, where the API has them; else one `diffWithHEAD(file)` per file.
	 */
	private async diffs(
		repo: GitRepository,
		wanted: readonly GitChange[],
		tracked: readonly GitChange[],
		signal: AbortSignal,
	): Promise<Map<string, string>> {
		const out = new Map<string, string>();
		if (repo.diff) {
			const [unstaged, staged] = await Promise.all([repo.diff(false), repo.diff(true)]);
			checkAborted(signal);
			const byPath = (text: string) =>
				new Map(splitUnifiedDiff(text).map((d) => [vscode.Uri.joinPath(repo.rootUri, d.path).fsPath, d.text]));
			const u = byPath(unstaged);
			const s = byPath(staged);
			for (const c of wanted) {
				const text = tracked.includes(c) ? u.get(c.uri.fsPath) : s.get(c.uri.fsPath);
				if (text) out.set(c.uri.fsPath, text);
			}
			return out;
		}
		for (const c of wanted) {
			checkAborted(signal);
			out.set(
				c.uri.fsPath,
				tracked.includes(c) ? await repo.diffWithHEAD(c.uri.fsPath) : await repo.diffIndexWithHEAD(c.uri.fsPath),
			);
		}
		return out;
	}
}

function matches(path: string, named: string | null): boolean {
	return named !== null && (path === named || path.endsWith(`/${named}`));
}

/** The repository a workspace-relative path belongs to (for the Stage/Revert/Commit actions). */
export async function repositoryOf(): Promise<GitRepository | null> {
	const api = await gitApi();
	return api ? repositoryFor(api) : null;
}
