/**
 * Runs `policy_override` hooks over a draft decision and takes back only well-formed changes:
 * unknown tiers, writes or paths are dropped (with a note), tiers are put back in contract order,
 * and Restricted Mode is enforced again — a hook may not open the workspace of an untrusted folder.
 */
import type { Classified } from './classified';
import type { HookRegistry, PolicyOverridePayload } from '../hooks';
import { applyRestricted, setTiers, tiersOf } from '../policy/policyEngine';
import { ANSWER_PATHS, TIERS, WRITE_TIERS, type AnswerPath, type Tier, type TurnInput, type WriteTier } from '../types';
import type { Draft } from './resolveDecision';
import type { TraceRecorder } from './traceRecorder';

function ordered<T extends string>(allowed: readonly T[], values: unknown, rec: TraceRecorder, what: string): T[] {
	const list = Array.isArray(values) ? values : [];
	const bad = list.filter((v) => !allowed.includes(v as T));
	if (bad.length) rec.note('hooks', 'warn', `policy_override: ignored unknown ${what} ${bad.map(String).join(', ')}`);
	return allowed.filter((a) => list.includes(a));
}

/** Applies the registered `policy_override` hooks to `d` and returns the sanitised result. */
export function applyPolicyOverride(
	input: TurnInput,
	c: Classified,
	d: Draft,
	hooks: HookRegistry,
	rec: TraceRecorder,
): Draft {
	const payload: PolicyOverridePayload = {
		turn: {
			id: input.id ?? null,
			utterance: input.utterance,
			trigger: c.trigger.trigger,
			intent: c.intent.intent,
			mode: c.behavior.mode,
			followup_score: c.followup.score,
		},
		path: d.path.path,
		tiers: [...d.tiers],
		write: [...d.write],
		route: d.route,
		policy: { ...d.policy },
	};
	const out = hooks.run('policy_override', payload, rec);
	if (out === payload) return d;

	const policy = { ...d.policy, ...out.policy };
	// `tiers` is authoritative when a hook edited it; otherwise the inject flags it may have edited are.
	const tiersEdited = JSON.stringify(out.tiers) !== JSON.stringify(d.tiers);
	let tiers: Tier[] = tiersEdited ? ordered(TIERS, out.tiers, rec, 'tier') : tiersOf(policy);
	const write: WriteTier[] = ordered(WRITE_TIERS, out.write, rec, 'write tier');
	let pathName: AnswerPath = d.path.path;
	if (ANSWER_PATHS.includes(out.path)) pathName = out.path;
	else rec.note('hooks', 'warn', `policy_override: ignored unknown path ${String(out.path)}`);

	setTiers(policy, tiers);
	const reclosed = applyRestricted(policy, input.context);
	if (reclosed.length) {
		rec.note('hooks', 'warn', `policy_override: Restricted Mode closed ${reclosed.join(', ')} again`);
		tiers = tiersOf(policy);
	}
	const route = typeof out.route === 'string' && out.route !== '' ? out.route : d.route;
	policy.route = route;
	return { ...d, path: { ...d.path, path: pathName }, policy, tiers, write, route };
}
