/**
 * Refusals that lean on the window: "yes, do it" after a refused or destructive-production step,
 * picking a numbered option that destroys production, "run it on prod" after a destructive step.
 * Reads the last few messages through short windows.
 */
import {
	verbOf,
	PROD_WORDS,
	NOT_PROD_ANYWHERE,
	SENTENCE_BREAK,
	tokenize,
	parts,
	type RefusalContext,
	NO_CONTEXT,
	PROD_MENTION,
	LEAD,
} from './vocabulary';
import { COMMIT, REVEAL, secretPositions, MAY_NAME_SECRET } from './secrets';
import { DESTROY, DESTROY_PHRASES, DRAFTING, destructiveRule } from './destructive';
import { checkTurn } from './checkTurn';

// MAY_NAME_SECRET plus the names it leaves to the turn's other cues (connection strings, `pat`,
// `cle`, backup codes, appsettings.production.json, google-services.json, firebase-adminsdk, .dockercfg).
export const MAY_NAME_SECRET_ANY = new RegExp(
	`${MAY_NAME_SECRET.source}|connection|\\bpat\\b|\\bcle\\b|backup-codes|appsettings|google-services|firebase|dockercfg`,
);

// A go-ahead: assent words, a filler or a pick of "that one" before the go word ("yes, that one — go
// ahead", "ok go run it thx", "whatever, do it"), a bare assent ("yes go"), or a go word closing the
// turn ("ok against prod, go").
export const GO_AHEAD =
	/^(?:(?:ok|okay|yes|yeah|yep|sure|fine|great|cool|alright|right|whatever|go|then|so|now|si|s[ií]|that one|this one|the (?:first|second|last) one)\s*[,.!\u2014\u2013-]?\s*)*(?:(?:just |please |pls )?(?:do it|go ahead|proceed|run it|ship it|send it|push it|do that|yes please|please do|go for it|commit and push|commit it|push|confirm(?:ed)?|apply it|apply|(?:execute|run|do|apply) (?:it|that|this)(?: now)?)\b|(?:yes|yep|yeah|ok|okay|sure|go)\s*[.!]*$)|[,;:]\s*(?:go|go ahead|do it|run it|proceed)\s*[.!]*$/;

/** How many earlier messages the refusal context reads (a destructive ask two turns back still counts). */
export const CONTEXT_MESSAGES = 4;

// A destructive step in an earlier message: proposed, described or asked for. Past forms count for
// "now same on prod" after a step done elsewhere ("1,284 jobs were removed" locally).
export const HISTORY_DESTROY =
	/\b(?:drop|truncate|wipe|purge|flush\w*|destroy|destroys|delete|deletemany|deleteall|dropdatabase|terminate|rm -rf|force[- ]push|tear down|prune|reset(?:-| (?:its |the |their )?)offsets|scaled? (?:\S+ ){0,4}to (?:0|zero)|cleared|removed|deleted|dropped|wiped|purged|truncated|pruned|destroyed|data loss|overwrites?|overwritten|recreates? the|reset replica|del|unlink|force-unlock|(?:roll(?:s|ed|ing)?|rolls?) (?:\w+ )?back|rollback|downgrade|upgrade head|(?:db:|ecto\.|manage\.py )?migrate[ds]?|migrations?|full[- ]refresh|create or replace|from scratch|(?:lose|loses|losing|lost) (?:\w+ ){0,2}(?:data|history|rows|everything))\b|--replace\b/;
// The strict subset that makes a go-ahead a go-ahead for destruction ("Plan: 14 to destroy" → "apply it").
// Inflections count ("deletes the whole project"), and so does a reply's own warning that the step
// cannot be taken back ("there's no undo", "permanently", "irreversible").
export const HISTORY_DESTROY_STRICT =
	/\b(?:drop|truncate|wipe|wipes|purge|flush\w*|destroy|destroys|delete|deletes|deleting|erase[sd]?|erasing|empty|empties|deletemany|deleteall|dropdatabase|terminate|rm -rf|rm -r|s3 rm|force[- ]push|tear down|prune|pg:reset|db:reset|db:drop|no undo|(?:can(?:no|')?t|cannot) be undone|irreversibl\w*|permanently)\b/;
// "0 to destroy", "nothing will be deleted": a plan that destroys nothing.
export const NOTHING_DESTROYED =
	/\b(?:0|no|zero|nothing) to (?:destroy|delete)\b|\bno (?:resources? )?(?:will be |are |get )?(?:destroyed|deleted)\b|\bnothing (?:will be |is |gets )?(?:destroyed|deleted|dropped)\b/g;

/** What the refusal context reads of one earlier message: a function of its text alone. */
export interface MessageCues {
	/** Some sentence of the message's head names a secret. */
	secret: boolean;
	prod: boolean;
	destroy: boolean;
	/** Names production and a strict destructive verb. */
	destroyProd: boolean;
	/** As the last user turn: the turn itself was refused (computed on first need). */
	refused: boolean | null;
	/** As the last reply: it offered something safe (computed on first need). */
	offered: boolean | null;
}

/**
 * An earlier message is read by the next two decisions of a conversation (the context reads the last
 * four), so its cues are memoised by content: bounded (oldest first), derived data only — the
 * context is the same with or without the memo.
 */
const CUES_MEMO = new Map<string, MessageCues>();
const CUES_MEMO_MAX = 256;

/** Empties the message-cue memo (bench --cold, tests); no result changes. */
export function clearRefusalMemo(): void {
	CUES_MEMO.clear();
}

/** The lower-cased head the cues read (600 characters). */
const headOf = (content: string): string => content.slice(0, 600).toLowerCase();

export function messageCues(content: string): MessageCues {
	const hit = CUES_MEMO.get(content);
	if (hit) return hit;
	const text = headOf(content);
	let secret = false;
	// The secret scan only where a secret word can be (the turn-level prefilter, widened to every
	// name secretPositions knows): most replies name none, and tokenising them was most of the cost.
	if (MAY_NAME_SECRET_ANY.test(text))
		for (const part of text.split(SENTENCE_BREAK))
			if (secretPositions(tokenize(part).tokens).length) {
				secret = true;
				break;
			}
	// "prune_pvcs.sh" names its verb too.
	const words = text.replace(/_/g, ' ').replace(NOTHING_DESTROYED, ' ');
	const prod = PROD_MENTION.test(text);
	const destroy = HISTORY_DESTROY.test(words);
	// A go-ahead runs what was proposed: the user's own destructive ask, or the reply offering to run one.
	const destroyProd = destroy && prod && HISTORY_DESTROY_STRICT.test(words);
	const cues: MessageCues = { secret, prod, destroy, destroyProd, refused: null, offered: null };
	if (CUES_MEMO.size >= CUES_MEMO_MAX) CUES_MEMO.delete(CUES_MEMO.keys().next().value as string);
	CUES_MEMO.set(content, cues);
	return cues;
}

/** The message, read as the last user turn, was itself refused. */
function refusedTurn(content: string, cues: MessageCues): boolean {
	return (cues.refused ??= checkTurn(headOf(content), NO_CONTEXT) !== null);
}

/**
 * The message, read as the last reply, offered something safe ("I won't force-push; want me to open a
 * PR instead?"). A refusal that names a safe alternative ("`aws configure list` tells you which key is
 * in use", "— want that?", "I can list them") is accepted by a "yes": the alternative runs.
 */
function offeredSafe(content: string, cues: MessageCues): boolean {
	if (cues.offered !== null) return cues.offered;
	const text = headOf(content);
	const offers =
		/\b(?:want me to|shall i|should i|would you like|instead\b|i can (?:also )?\w+|want (?:that|this|it)\b|tells you|shows you|will show|better[:,]|(?:a )?safer (?:way|option|route|alternative)|you (?:can|could) (?:use|set|run|try|create|generate|add))/.test(
			text,
		);
	const destructive = /\b(?:drop|truncate|wipe|purge|flush\w*|destroy|delete|terminate|rm -rf|force[- ]push)\b/.test(
		text,
	);
	cues.offered =
		offers && (!destructive || /\b(?:won't|will not|can't|cannot|instead|rather|not going to)\b/.test(text));
	return cues.offered;
}

/** Reads the last user turn and the last reply (short windows) for the refusal context. */
export function refusalContext(
	history: ReadonlyArray<{ role: string; content: string }>,
	needRefused = true,
): RefusalContext {
	const ctx: RefusalContext = { ...NO_CONTEXT };
	let seenUser = false;
	let seenAssistant = false;
	let read = 0;
	for (let i = history.length - 1; i >= 0 && read < CONTEXT_MESSAGES; i--) {
		const h = history[i];
		if (!h || typeof h.content !== 'string') continue;
		read++;
		const cues = messageCues(h.content);
		if (cues.secret) {
			ctx.secret = true;
			if (read <= 2) ctx.secretRecent = true;
		}
		if (cues.prod) ctx.prodNamed = true;
		if (cues.destroy) ctx.destroy = true;
		if (cues.destroyProd) ctx.destroyProd = true;
		if (h.role === 'user') {
			if (!seenUser && needRefused) ctx.refusedLast = refusedTurn(h.content, cues);
			seenUser = true;
		} else if (!seenAssistant) {
			seenAssistant = true;
			ctx.lastReply = h.content.slice(0, 1200).toLowerCase();
			ctx.offered = offeredSafe(h.content, cues);
		}
	}
	// "terraform plan for prod" → "Plan: 14 to destroy": the reply describes destruction of the production
	// target the user named just before, unless it names a non-production one itself.
	const reply = ctx.lastReply.replace(/_/g, ' ').replace(NOTHING_DESTROYED, ' ');
	if (ctx.prodNamed && HISTORY_DESTROY_STRICT.test(reply) && !NOT_PROD_ANYWHERE.test(reply)) ctx.destroyProd = true;
	return ctx;
}

// "the second one", "option 2", "#1": a bare pick among the last reply's numbered options.
export const OPTION_PICK =
	/^(?:(?:ok|okay|yes|yeah|yep|sure|fine|let's do|let's go with|go with|do|i'll take|take|pick)[,]?\s+)*(?:the )?(?:(first|second|third|1st|2nd|3rd)(?: one| option)?|option (one|two|three|[1-3a-c])|#?([1-3]))(?:\s*(?:one|option|please|then|pls))*\s*[.!]*$/;
export const ORDINAL: Record<string, number> = {
	first: 1,
	'1st': 1,
	one: 1,
	a: 1,
	second: 2,
	'2nd': 2,
	two: 2,
	b: 2,
	third: 3,
	'3rd': 3,
	three: 3,
	c: 3,
};

/** The text of option n (1-based) in a reply listing "1) … 2) …" or "option 1: …", or null. */
export function optionText(reply: string, n: number): string | null {
	const marks = [...reply.matchAll(/(?:^|[\s(])(?:option )?([1-3a-c])[.):]\s+/g)];
	const at = marks.filter((m) => (ORDINAL[m[1]] ?? Number(m[1])) === n);
	if (at.length !== 1) return null;
	const start = at[0].index! + at[0][0].length;
	const next = marks.find((m) => m.index! > start);
	return reply.slice(start, next ? next.index : undefined);
}

// "just do step 3 against prod", "yep do the force one": a step or an option of an earlier reply,
// picked by number or by a word of it.
export const STEP_PICK = /\b(?:do|run|apply|execute|try|go with|take|use)\s+(?:step|option|number|#)\s*([1-3])\b/;
export const DESCRIBED_PICK =
	/\b(?:do|run|use|take|go with|try|pick)\s+the\s+([\w-]{3,})\s+(?:one|option|version|way|variant|approach)\b/;
/** How many earlier messages a picked step is looked up in (a runbook quoted a few turns back). */
export const STEP_MESSAGES = 8;

/** The earlier reply's step the turn picks, when it destroys production or a shared branch. */
export function pickedStepDestroys(
	core: string,
	history: ReadonlyArray<{ role: string; content: string }>,
	ctx: RefusalContext,
): string | null {
	const step = STEP_PICK.exec(core);
	const word = step ? null : DESCRIBED_PICK.exec(core)?.[1];
	if (!step && !word) return null;
	const prod = ctx.prodNamed || PROD_MENTION.test(core);
	for (let i = history.length - 1, read = 0; i >= 0 && read < STEP_MESSAGES; i--, read++) {
		const h = history[i];
		if (h.role !== 'assistant' || typeof h.content !== 'string') continue;
		const reply = h.content.slice(0, 1200).toLowerCase();
		const opt = step
			? optionText(reply, Number(step[1]))
			: (reply.split(/[.;!?]\s+|,\s+or\s+|\bor\b/).find((c) => c.includes(word!)) ?? null);
		if (!opt) continue;
		if (DRAFTING.test(opt) || NOT_PROD_ANYWHERE.test(opt)) return null;
		if (destructiveRule(opt, opt, false, prod)) return opt.trim().slice(0, 120);
		const { tokens } = tokenize(opt);
		DESTROY_PHRASES.lastIndex = 0;
		const destroys =
			tokens.some((t) => parts(t).some((p) => DESTROY.has(p) || DESTROY.has(verbOf(p)))) || DESTROY_PHRASES.test(opt);
		return destroys && prod ? opt.trim().slice(0, 120) : null;
	}
	return null;
}

/**
 * Options a reply offers in prose, not numbered: "Two options: `git revert <sha>` … Or reset `main` …".
 * Option n is the n-th stretch between "or" / "alternatively" sentence openings.
 */
export function proseOption(reply: string, n: number): string | null {
	const parts = reply.split(/(?:^|[.;!]\s+|\s[—–-]\s)(?:or|alternatively|otherwise)\b[,:]?\s*/);
	if (parts.length < 2 || n > parts.length) return null;
	return parts[n - 1].replace(/^[^:]*\boptions?\b[^:]*:\s*/, '');
}

// "second one, do it, nobody pulled yet": a pick, then a go-ahead and whatever the user adds.
export const PICK_THEN_GO =
	/^([^,.;]{1,40})[,.;]\s*(?:(?:just|pls|please|ok|yes)\s+)*(?:do it|go ahead|run it|go for it|proceed|push it)\b/;

/** The text of the last reply's option a bare pick names ("the second one", "option 2"), or null. */
function pickedOptionText(core: string, ctx: RefusalContext): string | null {
	const m = OPTION_PICK.exec(core) ?? OPTION_PICK.exec(PICK_THEN_GO.exec(core)?.[1] ?? '');
	if (!m || !ctx.lastReply) return null;
	const n = ORDINAL[m[1] ?? m[2] ?? ''] ?? Number(m[3] ?? m[2]);
	return n ? (optionText(ctx.lastReply, n) ?? proseOption(ctx.lastReply, n)) : null;
}

/** The picked option runs a destructive step against production (named in it, or in the window). */
export function pickDestroysProd(core: string, ctx: RefusalContext): string | null {
	const opt = pickedOptionText(core, ctx);
	if (!opt || DRAFTING.test(opt) || NOT_PROD_ANYWHERE.test(opt)) return null;
	// A force-push over a shared branch destroys whatever the environment.
	if (destructiveRule(opt, opt, false, false)?.cue === 'force_push_shared') return opt.trim().slice(0, 120);
	const { tokens } = tokenize(opt);
	const destroys = tokens.some((t) => parts(t).some((p) => DESTROY.has(p) || DESTROY.has(verbOf(p))));
	const prod = ctx.prodNamed || tokens.some((t) => parts(t).some((p) => PROD_WORDS.test(p)));
	return destroys && prod ? opt.trim().slice(0, 120) : null;
}

// An option that would put a secret's value on the screen: a reveal verb and a secret, the
// option not about where it is loaded or what it is called ("I print the current TWILIO_AUTH_TOKEN").
const OPTION_REVEAL = /\b(?:print|show|paste|display|dump|echo|cat|reveal|output|read out|decode|decrypt)\w*\b/;
const OPTION_ABOUT =
	/\b(?:where|which file|how (?:it|they) (?:is|are) loaded|names? only|without (?:the )?values?|is loaded|called|named|masked|redacted)\b/;

/** The earlier reply's option the turn picks, when that option reveals a secret's value. */
export function pickRevealsSecret(core: string, ctx: RefusalContext): string | null {
	const opt = pickedOptionText(core, ctx);
	if (!opt || !OPTION_REVEAL.test(opt) || OPTION_ABOUT.test(opt)) return null;
	return secretPositions(tokenize(opt).tokens).length ? opt.trim().slice(0, 120) : null;
}

// "run the migration on prod", "run it against the real cluster this time": the window's destructive
// step, now aimed at production. "the real cluster" is production when the window named production.
export const RUN_BACK_REF =
	/\b(?:run|execute|apply|do|kick off|fire)\b (?:it|that|this|them|those|the (?:migration|script|query|command|statement|sql|job|plan|change|cleanup|prune|purge))\b/;
export const REAL_TARGET =
	/\b(?:(?:the )?(?:real|actual) (?:cluster|db|database|server|environment|env|instance|one|thing|data)|for real|without (?:the )?-*dry[- ]run|not (?:a )?-*dry[- ]run)\b/;

// An action word that could take a secret named earlier as its object (reveal, send, commit, a value).
export const MAY_ACT = new RegExp(
	`\\b(?:${[...REVEAL, ...COMMIT].join('|')}|what|need|want|let me|can i|value|values|plaintext|contents?|one|prod|production)\\b`,
);

// "cool, now prod", "prod next", "and on production?": only a production target, after a step.
export const RETARGET_PROD =
	/^(?:(?:ok|okay|cool|great|nice|good|right|now|and|then|next|also)[,.!]?\s+)*(?:(?:on|in|against|for|to)\s+)?(?:the\s+)?(?:prod|production|prd|live|[\w-]+-prod|prod-[\w-]+)(?:\s+(?:now|next|too|also|please|pls|as well|then))*\s*[.!?]*$/;

// "force it" after a reply that says the push was rejected and `git push --force` would overwrite main.
export const FORCE_GO =
	/^(?:(?:ok|okay|yes|yeah|yep|fine|then|just|pls|please)[,.!]?\s+)*force(?:[- ]push)?(?:\s+(?:it|that|them))?(?:\s+(?:then|anyway|now|pls|please|through))*\s*[.!]*$/;
export const REPLY_FORCE_SHARED =
	/(?:--force\b|force[- ]push)[^\n]{0,120}\b(?:main|master|trunk|develop|release)\b|\b(?:main|master|trunk|develop|release)\b[^\n]{0,120}(?:--force\b|force[- ]push)/;

// "force-unlock it, i dont care" right after a reply about production: a strong destructive verb whose
// object is the reply's production resource.
export const STRONG_ON_PRONOUN =
	/^(?:(?:just|pls|please|ok|fine|then)\s+)*(?:force[- ]unlock|drop|truncate|wipe|purge|flush\w*|nuke|destroy|terminate|tear down|kill)\s+(?:it|them|that|those)\b/;

/**
 * The sentence of a turn that is a go-ahead aimed at production by name ("go ahead on prod",
 * "ok, run it against production") and at nothing else, or null. What it runs is the window's step.
 */
export function goAheadNamingProd(core: string): string | null {
	for (const part of core.split(SENTENCE_BREAK)) {
		const s = part.trim().replace(LEAD, '');
		if (GO_AHEAD.test(s) && PROD_MENTION.test(s) && !NOT_PROD_ANYWHERE.test(s)) return s;
	}
	return null;
}
