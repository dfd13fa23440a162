/**
 * The refusal rules' shared vocabulary: sentence splitting and tokens, proximity, the ordinary
 * questions both families exempt, production and non-production words, and the refusal context's
 * shape. No rule lives here.
 */

/** The rule that refused a turn, for the trace. */
export interface Refusal {
	rule: 'secret' | 'commit_secret' | 'destructive_prod';
	cue: string;
	match: string;
}

/** A verb token, plural/3rd-person -s stripped ("POSTs", "sends"). */
export const verbOf = (t: string) => (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t);

export const ORDINARY_QUESTION =
	/^(?:(?:ok|okay|so|hey|hi|hmm|quick question|question|also|and|but|btw)[,:]?\s+)*(?:where|how|which|why|when|does|do (?:we|you|i|they)|(?:will|would|did|doesn't|doesnt|won't|wouldn't|might) (?!you\b|u\b|ya\b|we\b|i\b)[\w-]+|is (?:there|it|the|our)|are (?:there|the|our|we)|should|could (?:we|i) safely|can (?:we|i) safely|what (?:would|will|happens|would happen|does|do|is the (?:best|safest|right|recommended)|are the (?:risks|steps))|what(?:'s| s|s) the (?:best|safest|right|recommended)|explain|walk me through (?:how|why|what)|(?:can|could) you (?:tell|show) me (?:where|how|which|why|whether|if)|tell me (?:where|how|which|why|whether|if)|show me (?:where|how|which)|is it (?:safe|ok|okay|possible)|list (?:the |all )?(?:env(?:ironment)? ?var(?:iable)?s?|names|places|files))\b/;

export const PROD_WORDS =
	/^(?:prod|production|prd|live|customers?|producción|produccion|produção|producao|produktion|produkcja|produkcji|(?:[\w-]+[-_])?(?:prod|production|prd)(?:[-_][\w-]+)?)$/;
export const BRANCH_WORDS = /^(?:(?:origin|upstream)\/)?(?:main|master|trunk|release(?:\/[\w.-]+)?|develop)$/;
export const NOT_PROD_ANYWHERE =
	/\b(?:local(?:ly|host)?|dev|development|test|testing|staging|sandbox|dry[- ]run|preview|ephemeral|throwaway|scratch|feature (?:stack|branch|env(?:ironment)?)|kind cluster|minikube|k3d|microk8s)\b|\b(?:dev|test|staging|sandbox|local)_\w+/;
export const NOT_PROD_WORDS =
	/^(?:local|locally|localhost|dev|development|test|testing|staging|sandbox|scratchpad|fixture|fixtures|feature|in-memory|docker|dockerized|throwaway|temp|tmp|ephemeral|preview|qa|uat|ci)$/;

// Sentences end at . ? ! before a space, or at a line break — not inside ".env.production" or at
// the ';' of SQL in backticks.
export const SENTENCE_BREAK = /(?<![\s(](?:incl|e\.g|i\.e|etc|vs|approx|esp|cf|ca|w\/o)\.)(?<=[.?!])\s+|\n+/;
export const TOKEN = /[\p{L}\p{N}_./@:=$-]+/gu;

/** Index of the token holding character `offset` (the last token starting at or before it). */
function tokenAt(starts: readonly number[], offset: number, from = 0): number {
	let i = from;
	while (i + 1 < starts.length && starts[i + 1] <= offset) i++;
	return i;
}

/** Token positions of a phrase regex's matches (its first word's index). */
export function phrasePositions(
	sentence: string,
	tokens: readonly string[],
	starts: readonly number[],
	re: RegExp,
): number[] {
	const out: number[] = [];
	re.lastIndex = 0;
	for (let m = re.exec(sentence); m; m = re.exec(sentence)) out.push(tokenAt(starts, m.index));
	void tokens;
	return out;
}

/** Each match of `re` as [first token, last token]: a long phrase is near a target by its last word too. */
export function phraseSpans(sentence: string, starts: readonly number[], re: RegExp): [number, number][] {
	const out: [number, number][] = [];
	re.lastIndex = 0;
	for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
		const i = tokenAt(starts, m.index);
		out.push([i, tokenAt(starts, m.index + m[0].length - 1, i)]);
	}
	return out;
}

export function near(a: readonly number[], b: readonly number[], span: number): [number, number] | null {
	for (const i of a) for (const j of b) if (Math.abs(i - j) <= span) return [i, j];
	return null;
}

export function tokenize(sentence: string): { tokens: string[]; starts: number[] } {
	const tokens: string[] = [];
	const starts: number[] = [];
	TOKEN.lastIndex = 0;
	for (let m = TOKEN.exec(sentence); m; m = TOKEN.exec(sentence)) {
		tokens.push(m[0].replace(/[.:,]+$/, ''));
		starts.push(m.index);
	}
	return { tokens, starts };
}

/** A token's parts ("purge_queue" → purge, queue; "rabbit@prod-mq-01" → rabbit, prod, mq, 01). */
export const parts = (t: string) => t.split(/[./:()@=_$-]+/).filter(Boolean);

// "there's no prod inventory here anyway": a statement about the thread, not a go-ahead.
export const STATEMENT_START =
	/^(?:there(?:'s| is| are)|it(?:'s| is| was| has)\b|we (?:have|don't|do not|never)|i (?:have|don't|do not|think))\b/;

// "somebody suggested we just tear down StorageStack-prod … Thoughts?": someone else's idea, put up
// for an opinion, is not a request to run it.
export const REPORTED =
	/\b(?:somebody|someone|people|colleague|coworker|co-worker|teammate|(?:my |our |the )?(?:lead|boss|manager|cto|dba|author|reviewer|team|client|vendor))\s+(?:\w+\s+)?(?:suggested|suggests|proposed|proposes|recommended|recommends|asked (?:whether|if)|asks (?:whether|if)|wants to know|wonders)\b/;

export const LEAD =
	/^(?:(?:ok|okay|so|now|then|also|and|but|btw|please|pls|just|hey|hi|whatever|fine|alright|great|cool|right|quick one|one more thing)[,:]?\s+)+/;

/** What the last turns said: a secret named, a destructive step on production, a refused request. */
export interface RefusalContext {
	secret: boolean;
	/** A secret was named in the last user turn or the last reply: "it" can still stand for it. */
	secretRecent: boolean;
	destroy: boolean;
	/** A destructive step against production was asked for or proposed. */
	destroyProd: boolean;
	refusedLast: boolean;
	/** The last reply offered something ("want me to push to a branch instead?"): a "yes" accepts that. */
	offered: boolean;
	/** Production was named somewhere in the window ("the real cluster is prod-us-east"). */
	prodNamed: boolean;
	/** The last reply, lower-cased (its numbered options are what "the second one" picks). */
	lastReply: string;
}

export const NO_CONTEXT: RefusalContext = {
	secret: false,
	secretRecent: false,
	destroy: false,
	destroyProd: false,
	refusedLast: false,
	offered: false,
	prodNamed: false,
	lastReply: '',
};

export const PROD_MENTION = /\b(?:prod|production|prd|live)\b|[\w-]+-prod\b|\bprod-[\w-]+/;

export const LEANS_BACK =
	/\b(?:it|them|that|those|value|values|contents?|output|plaintext|same|again|too|also|this|(?:prod|production|real|live|actual) one|(?:the|that|this) keys?)\b/;
