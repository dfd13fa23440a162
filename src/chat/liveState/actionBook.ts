/**
 * The host's record of the actions its replies proposed, and the one way to run one: the user's
 * click arrives as ids (`action/run`), the action is looked up here (never taken from the page),
 * run through the host's `ActionRunner` (which asks for a modal confirmation when the proposal
 * says so), and what happened becomes a trace note. Restricted Mode runs nothing. No `vscode`.
 */
import type { ActionStatus, ProposedAction } from '../../core/protocol';
import type { TraceStep } from '../../core/trace';
import { errorMessage } from '../logger';
import type { ActionPlan, RunnableAction } from './actionProposal';

/** Runs a clicked action in the editor (terminal, git API, workspace edit). */
export interface ActionRunner {
	run(run: RunnableAction, proposal: ProposedAction): Promise<{ status: ActionStatus; message: string }>;
}

/** Proposals kept per reply; the oldest replies' are forgotten past this many. */
const KEPT_REPLIES = 50;

export class ActionBook {
	private readonly byTurn = new Map<string, ActionPlan[]>();
	private readonly ran = new Set<string>();

	/** Keeps a reply's proposals (none: nothing kept). */
	remember(turnId: string, plans: readonly ActionPlan[] | undefined): void {
		if (!plans?.length) return;
		this.byTurn.set(turnId, [...plans]);
		while (this.byTurn.size > KEPT_REPLIES) this.byTurn.delete(this.byTurn.keys().next().value as string);
	}

	/** Runs the clicked action once; the result and the trace note to append. Never rejects. */
	async run(
		turnId: string,
		actionId: string,
		runner: ActionRunner | undefined,
		restricted: boolean,
	): Promise<{ status: ActionStatus; message: string; step: TraceStep }> {
		const plan = this.byTurn.get(turnId)?.find((p) => p.action.id === actionId);
		const key = `${turnId}/${actionId}`;
		let out: { status: ActionStatus; message: string };
		if (restricted)
			out = { status: 'unavailable', message: 'Restricted Mode: actions are not run in an untrusted workspace.' };
		else if (!plan)
			out = {
				status: 'unavailable',
				message:
					'This proposal is no longer held (the window was reloaded or it is too old): ask again to get a fresh one.',
			};
		else if (this.ran.has(key))
			out = { status: 'unavailable', message: 'This action already ran once; ask again to run it again.' };
		else if (!runner) out = { status: 'unavailable', message: 'This host cannot run actions.' };
		else {
			try {
				out = await runner.run(plan.run, plan.action);
			} catch (e) {
				out = { status: 'failed', message: errorMessage(e) };
			}
			if (out.status === 'ran') this.ran.add(key);
		}
		const what = plan ? `"${plan.action.detail}"` : actionId;
		const step: TraceStep = {
			kind: 'note',
			stage: 'action',
			level: out.status === 'failed' ? 'warn' : 'info',
			message: `the user clicked ${what}: ${out.status} — ${out.message}`,
		};
		return { ...out, step };
	}
}
