/**
 * A recognised request to act ("run the unit tests", "undo that change", "commit this", "fetch and
 * rebuild", "apply the fix") → the exact command, git operation or edit, as a `ProposedAction` the
 * panel shows with a control. Nothing here runs anything: the host runs an action only when the
 * user clicks it (src/extension/liveState/actionRunner.ts), after a modal confirmation when
 * `confirm` is set. No `vscode` import.
 */
import type { ActionIntent } from '../../core/liveState/actionIntents';
import { commandRisk } from '../../core/liveState/actionRisk';
import type { ProposedAction } from '../../core/protocol';
import type { LiveItem } from './liveStatePorts';
import type { ForgetCandidate } from '../forgetMatch';
import type { ForgottenItem } from '../memoryCommandStore';

/** A proposal plus what the host needs to run it (kept host-side; the webview sees only `action`). */
export interface ActionPlan {
	action: ProposedAction;
	run: RunnableAction;
}

/** What the host runs when the control is clicked. */
export type RunnableAction =
	| { kind: 'terminal'; command: string }
	| { kind: 'git'; op: 'stage' | 'revert' | 'commit'; paths: string[] }
	| { kind: 'edit'; op: 'quickfix'; path: string; line: number }
	// A chat "forget that …" (memoryCommandTurn.ts): Undo, or forgetting the candidate the user picks. Run by the controller, not the editor.
	| { kind: 'memory'; op: 'restore'; items: ForgottenItem[] }
	| { kind: 'memory'; op: 'forget'; targets: ForgetCandidate[] };

/** The proposal for `intent`, or the reason there is none (said in the trace). */
export function proposeAction(
	intent: ActionIntent,
	scripts: Record<string, string> | null,
	items: readonly LiveItem[],
	file: string | null,
): ActionPlan | { none: string } {
	const id = `${intent.kind}-1`;
	switch (intent.kind) {
		case 'run_tests': {
			const script = testScript(intent.suite, scripts);
			if (!script)
				return {
					none: scripts
						? 'package.json has no test script'
						: 'no package.json scripts in the workspace to run the tests with',
				};
			return terminal(id, script === 'test' ? 'npm test' : `npm run ${script}`);
		}
		case 'build':
			if (!scripts?.build) return { none: 'package.json has no build script' };
			return terminal(id, 'npm run build');
		case 'fetch_rebuild':
			return terminal(id, scripts?.build ? 'git fetch && npm run build' : 'git fetch');
		case 'undo': {
			const paths = changedPaths(items, file);
			if (!paths.length) return { none: 'git shows no working-tree change to revert' };
			const what = paths.join(', ');
			return {
				action: {
					id,
					kind: 'git',
					label: 'Revert',
					detail: `revert the working-tree changes to ${what} (git restore)`,
					confirm: `Discard the uncommitted changes to ${what}? This cannot be undone.`,
				},
				run: { kind: 'git', op: 'revert', paths },
			};
		}
		case 'stage': {
			const paths = changedPaths(items, file);
			if (!paths.length) return { none: 'git shows no change to stage' };
			return {
				action: { id, kind: 'git', label: 'Stage', detail: `stage ${paths.join(', ')} (git add)`, confirm: null },
				run: { kind: 'git', op: 'stage', paths },
			};
		}
		case 'commit': {
			const paths = changedPaths(items, file);
			if (!paths.length) return { none: 'git shows nothing to commit' };
			return {
				action: {
					id,
					kind: 'git',
					label: 'Commit…',
					detail: `stage and commit ${paths.join(', ')} (asks for the message)`,
					confirm: null,
				},
				run: { kind: 'git', op: 'commit', paths },
			};
		}
		case 'apply_fix': {
			const problem = items.find((i) => i.citation.startsWith('Problems: ') && i.path !== null && i.startLine !== null);
			if (!problem || problem.path === null || problem.startLine === null)
				return { none: 'no diagnostic to fix in the Problems view' };
			const at = `${problem.path}:${problem.startLine}`;
			return {
				action: {
					id,
					kind: 'edit',
					label: 'Apply Edit',
					detail: `apply the language server's quick fix for ${at}`,
					confirm: null,
				},
				run: { kind: 'edit', op: 'quickfix', path: problem.path, line: problem.startLine },
			};
		}
	}
}

function terminal(id: string, command: string): ActionPlan {
	const risk = commandRisk(command);
	return {
		action: {
			id,
			kind: 'terminal',
			label: 'Run in Terminal',
			detail: command,
			confirm: risk.confirm ? `Run \`${command}\`? It ${risk.reasons.join(' and ')}.` : null,
		},
		run: { kind: 'terminal', command },
	};
}

/** The package.json script a test request means: the named suite's, else `test`. */
function testScript(suite: string | null, scripts: Record<string, string> | null): string | null {
	if (!scripts) return null;
	const names = Object.keys(scripts);
	if (suite && suite !== 'failing' && suite !== 'affected') {
		const wanted = suite === 'end-to-end' ? 'e2e' : suite;
		const hit =
			names.find((n) => n === `test:${wanted}`) ?? names.find((n) => n.startsWith('test') && n.includes(wanted));
		if (hit) return hit;
	}
	return scripts.test ? 'test' : (names.find((n) => n.startsWith('test')) ?? null);
}

/** Files git reports changed (from the git source's items), narrowed to the named file when it is one of them. */
function changedPaths(items: readonly LiveItem[], file: string | null): string[] {
	const paths = [
		...new Set(items.filter((i) => i.citation.startsWith('git diff ') && i.path !== null).map((i) => i.path as string)),
	];
	if (file) {
		const named = paths.filter((p) => p === file || p.endsWith(`/${file}`));
		if (named.length) return named;
	}
	return paths;
}
