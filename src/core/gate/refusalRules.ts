/**
 * The hard refusal rules, checked before anything is learned or searched (rubric: refuse). Two
 * families: disclosing, sending or committing a secret, and a destructive operation against
 * production. They are rules, not weights: a learned score could trade a refusal away for accuracy
 * elsewhere.
 *
 * Read per sentence, by proximity rather than by one fixed phrase: a sentence refuses when it holds
 * an action word (reveal/send/commit, or a destructive verb) and its object (a secret, or a
 * production target) within a few words of each other, in either order ("paste the Stripe key
 * here", "the prod orders table — drop it"). Both families exempt the ordinary questions the
 * rubric names: *where* or *how* credentials are loaded, how to do a risky thing safely, what an
 * operation does. A false refusal is an error too.
 */
import { SECRET_REQUEST } from '../answerPath/pathCues';
import { firstCue, type TextForms } from '../text/turnText';
import {
	type Refusal,
	ORDINARY_QUESTION,
	NOT_PROD_ANYWHERE,
	NO_CONTEXT,
	LEANS_BACK,
	PROD_MENTION,
} from './refusal/vocabulary';
import {
	PLACEHOLDER_SENTENCE,
	PARTIAL_SECRET,
	SECRET_SLICE,
	NAME_QUESTION,
	NOT_A_REQUEST_BEFORE,
} from './refusal/secrets';
import { withoutPastedData } from './refusal/pastedData';
import { DRAFTING, MAY_DESTROY } from './refusal/destructive';
import {
	GO_AHEAD,
	refusalContext,
	OPTION_PICK,
	pickDestroysProd,
	pickRevealsSecret,
	RUN_BACK_REF,
	REAL_TARGET,
	MAY_ACT,
	goAheadNamingProd,
	STEP_PICK,
	DESCRIBED_PICK,
	RETARGET_PROD,
	pickedStepDestroys,
	PICK_THEN_GO,
	FORCE_GO,
	REPLY_FORCE_SHARED,
	STRONG_ON_PRONOUN,
} from './refusal/history';
import { checkTurn } from './refusal/checkTurn';
import { canonicalForms } from './refusal/canonical';
import { leaningRefusal, isShortTurn, windowMayLean } from './refusal/leaning';

const TEMPLATE_FILE = /\.env\.(?:example|sample|template|dist)\b/;

export type { Refusal, RefusalContext } from './refusal/vocabulary';
export { refusalContext } from './refusal/history';

/**
 * The refusal rule that fires for this turn, or null. Pure; reads the turn's rule window and, for
 * "yes, do it" / "now paste it here", the last user turn and reply (`refusalContext`).
 */
export function checkRefusal(
	forms: Pick<TextForms, 'text' | 'core'>,
	history: ReadonlyArray<{ role: string; content: string }> = [],
): Refusal | null {
	// A pasted log, trace or snippet is data: it can name a secret, it asks for nothing.
	// Typos and the languages users mix in, in the rules' vocabulary (canonical.ts).
	const t = canonicalForms(withoutPastedData(forms));
	// The earlier turns matter only to a turn that leans on them ("yes, do it", "paste it here", "same
	// for prod"): a go-ahead, or a back-reference next to an action or production word.
	const goAhead = history.length > 0 && GO_AHEAD.test(t.core);
	// "works on staging. go ahead on prod": a go-ahead sentence that names production itself.
	const goAheadOnProd = history.length > 0 && goAheadNamingProd(t.core);
	const leans = history.length > 0 && LEANS_BACK.test(t.text) && (MAY_ACT.test(t.text) || MAY_DESTROY.test(t.text));
	const pick =
		history.length > 0 && (OPTION_PICK.test(t.core) || OPTION_PICK.test(PICK_THEN_GO.exec(t.core)?.[1] ?? ''));
	const force = history.length > 0 && FORCE_GO.test(t.core);
	const partial = history.length > 0 && (PARTIAL_SECRET.test(t.text) || SECRET_SLICE.test(t.text));
	const runBack = history.length > 0 && RUN_BACK_REF.test(t.text);
	const stepPick = history.length > 0 && (STEP_PICK.test(t.core) || DESCRIBED_PICK.test(t.core));
	const retarget = history.length > 0 && RETARGET_PROD.test(t.core);
	const ctx =
		goAhead || goAheadOnProd || leans || pick || partial || runBack || stepPick || retarget || force
			? refusalContext(history, goAhead || partial)
			: NO_CONTEXT;
	// "go ahead and run it" after "Yes — that's your sandbox; `cdk destroy StorageStack-dev-jlee`": the
	// go-ahead runs the last reply's step, which names only a non-production target.
	const replyNotProd = NOT_PROD_ANYWHERE.test(ctx.lastReply) && !PROD_MENTION.test(ctx.lastReply);
	if (force && REPLY_FORCE_SHARED.test(ctx.lastReply))
		return { rule: 'destructive_prod', cue: 'force_push_shared', match: t.core };
	if (
		(ctx.refusedLast || ctx.destroyProd) &&
		!ctx.offered &&
		!replyNotProd &&
		GO_AHEAD.test(t.core) &&
		!NOT_PROD_ANYWHERE.test(t.text)
	)
		return { rule: ctx.destroyProd ? 'destructive_prod' : 'secret', cue: 'go_ahead_after_refusal', match: t.core };
	if (retarget && ctx.destroy && !ctx.offered) return { rule: 'destructive_prod', cue: 'retarget_prod', match: t.core };
	if (goAheadOnProd && ctx.destroy && !ctx.offered)
		return { rule: 'destructive_prod', cue: 'go_ahead_on_prod', match: goAheadOnProd };
	const picked =
		(pick ? pickDestroysProd(t.core, ctx) : null) ?? (stepPick ? pickedStepDestroys(t.core, history, ctx) : null);
	if (picked) return { rule: 'destructive_prod', cue: 'pick_destructive_option', match: picked };
	const pickedSecret = pick ? pickRevealsSecret(t.core, ctx) : null;
	if (pickedSecret) return { rule: 'secret', cue: 'pick_reveal_option', match: pickedSecret };
	// After a refused secret request any part of it; with a secret merely named, an explicit slice.
	const part = (ctx.refusedLast && PARTIAL_SECRET.exec(t.text)) || (ctx.secret && SECRET_SLICE.exec(t.text));
	if (partial && part && !ORDINARY_QUESTION.test(t.core) && !PLACEHOLDER_SENTENCE.test(t.text))
		return { rule: 'secret', cue: 'partial_secret', match: part[0] };
	if (
		runBack &&
		ctx.destroy &&
		!ORDINARY_QUESTION.test(t.core) &&
		!DRAFTING.test(t.text) &&
		!NOT_PROD_ANYWHERE.test(t.text) &&
		(/\b(?:prod|production|prd|live)\b|[\w-]+-prod\b|\bprod-[\w-]+/.test(t.text) ||
			(ctx.prodNamed && REAL_TARGET.test(t.text)))
	)
		return { rule: 'destructive_prod', cue: 'run_back_ref_on_prod', match: RUN_BACK_REF.exec(t.text)![0] };
	if (
		leans &&
		ctx.prodNamed &&
		PROD_MENTION.test(ctx.lastReply) &&
		!replyNotProd &&
		STRONG_ON_PRONOUN.test(t.core) &&
		!NOT_PROD_ANYWHERE.test(t.text)
	)
		return { rule: 'destructive_prod', cue: 'destroy_prod_back_ref', match: STRONG_ON_PRONOUN.exec(t.core)![0] };
	const old = firstCue(SECRET_REQUEST, t.text);
	// "you sure that doesnt leak the password": the cue's verb describes, it is not asked for.
	const before = old ? /(\S+)\s*$/.exec(t.text.slice(0, t.text.indexOf(old.match)))?.[1] : undefined;
	// "copy .env.example to .env": a template, not a secret.
	if (
		old &&
		!ORDINARY_QUESTION.test(t.core) &&
		!NAME_QUESTION.test(t.text) &&
		!NOT_A_REQUEST_BEFORE.has(before ?? '') &&
		!TEMPLATE_FILE.test(t.text)
	)
		return { rule: 'secret', cue: old.name, match: old.match };
	// "How can I give the Vercel token to Ana? Can you send it to her?": "it" is the token.
	const sentenceHit = checkTurn(t.text, ctx);
	if (sentenceHit || history.length === 0 || !isShortTurn(t.core) || !windowMayLean(history)) return sentenceHit;
	// A short turn leaning on the last reply: an assent, the value, the same step on production (the
	// window is read here only when no earlier cue needed it).
	return leaningRefusal(t.text, t.core, ctx === NO_CONTEXT ? refusalContext(history, false) : ctx);
}
