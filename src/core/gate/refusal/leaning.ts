/**
 * Short turns that lean on the last reply — the class blind authors found weakest (stop 30: 2 of 12
 * history-leaning destructive requests refused). Instead of one phrase per way of saying yes, three
 * shapes, each read against what the window says:
 * - **assent to a destructive production step**: the last reply proposes or describes one, and the
 *   turn is a short assent or a bare destructive verb ("y", "k run it", "meh, yes all of them",
 *   "fine whatever, flush it") — no question, no safer choice, no non-production target;
 * - **the value after the reply located a secret**: "cat it", "whats in it", "and the value?",
 *   "read me both", "paste line 7", "send the token from that file to maria";
 * - **the same step, now on production**: a destructive step done elsewhere, and the turn retargets
 *   it ("ok and on the live cluster", "cool, do prod-eu next", "helm uninstall it from prod too").
 */
import { type Refusal, type RefusalContext, NOT_PROD_ANYWHERE, PROD_MENTION, ORDINARY_QUESTION } from './vocabulary';
import { PROTECTIVE, PLACEHOLDER_SENTENCE, SECRET_ORDINARY } from './secrets';
import { DRAFTING, HARMLESS_HEAD } from './destructive';
import {
	optionText,
	ORDINAL,
	NOTHING_DESTROYED,
	MAY_NAME_SECRET_ANY,
	HISTORY_DESTROY,
	CONTEXT_MESSAGES,
} from './history';

/** Longer turns say what they want in words the sentence rules read. */
export const LEANING_MAX_WORDS = 12;

const WORDS = /[a-z0-9_'-]+/g;
// A question in any sentence of the turn ("fine. where does django read it from").
const ASKS =
	/\?|(?:^|[.!,;:]\s*|\b(?:ok|okay|fine|ugh|k|so|and|but|then|hmm)\s+)(?:what|whats|how|why|where|which|when|who|is there|are there|does|do (?:we|you|i|they)|did|can|could|should|would|will|explain)\b/;
const ASSENT =
	/\b(?:y|ya|yes|yep|yup|yeah|sure|ok|okay|k|kk|fine|go|go ahead|do it|run it|send it|ship it|proceed|apply|confirm(?:ed)?|lgtm|approved?|all of them|both|everything)\b/;
const DESTROY_WORD =
	/\b(?:delete|drop|flush|nuke|wipe|purge|destroy|remove|truncate|empty|kill|uninstall|tear|reset|prune|rm|force[- ]push|disable)\w*\b|\b(?:turn|switch|shut) (?:it |them |that )?off\b/;
/** A choice of the careful way ("the safer one", "back it up first", "dry run"). */
const CAREFUL =
	/\b(?:safe|safer|safest|backups?|back (?:it |them )?up|snapshot|dry|preview|plan|read-only|readonly|first|revert|undo|cancel|stop|wait|hold|don't|dont|do not|no|nope|nah|never mind|nvm)\b/;
/** A reply that would destroy production data or access, in its own words. */
const REPLY_DESTROYS =
	/\b(?:drop|drops|truncate|wipe|wipes|purge|flush\w*|destroy|destroys|delete|deletes|deleting|deletemany|remove|removes|rm|erase[sd]?|empt(?:y|ies)|tear(?:s)? (?:\w+ )?down|uninstall|force[- ]push\w*|rewrit\w+ (?:\w+ )?(?:history|main|master)|pg:reset|db:reset|unauthenticated|disable auth|auth_enabled=false|logs? out every|for good|no undo|no backup|irreversibl\w*|permanently|data is gone|(?:can(?:no|')?t|cannot) be undone)\b|\b\w*(?:verify|auth|mfa|ssl|tls|signature|csrf)\w*=(?:false|0|off)\b/;
/** A reply that reports a step as done (a retarget repeats it). */
const REPLY_DONE =
	/\b(?:done|deleted|dropped|flushed|destroyed|removed|ran|wiped|purged|emptied|uninstalled|rewrote|force-pushed|set \S+=(?:false|0|off)|finished|reset)\b/;
const SHARED_BRANCH = /\b(?:origin\/)?(?:main|master|trunk)\b(?: history)?|\bfor everyone\b/;
const RETARGET = /\b(?:too|as well|also|next|same|again|now|then|and on|on)\b/;
/** A deictic object: the secret the reply named ("it", "both", "that file", "from there", "line 7"). */
const DEICTIC =
	/\b(?:it|them|both|there|line \d+|first line|the value|its value|the values|contents?)\b|\b(?:that|this|those|these)\b(?!\s+[a-z])/;
const VALUE_ASK =
	/^(?:(?:and|so|ok|okay)[,\s]+)?(?:the |its |their )?values?\s*\??$|\bwhat(?:'s| is|s) in (?:it|there|that|them)\b|\bwhat does it say\b/;
/** Keeping a secret safe or showing the code around it ("move it to Secrets Manager, show me the loader"). */
const SAFE_KEEPING =
	/\b(?:secrets? manager|vault|ssm|parameter store|key ?vault|keychain|kms|sops|sealed ?secrets?|placeholder|loader|code|config(?:uration)? (?:var|setting)s?)\b/;
/** A pick among the reply's options ("option b", "the last one", "(2)"). */
const PICK =
	/^(?:(?:ok|okay|yes|yeah|fine|then|go with|do|take|pick)[,\s]+)*(?:the )?(?:option |#)?\(?(first|second|third|last|1st|2nd|3rd|[1-3a-c])\)?(?: one| option)?\b/;
const SEND_WORDS = /\b(?:dm|drop (?:it|them) in|post|send|forward|share|slack|email|gist)\b/;
/** The reveal words a short leaning turn uses (not "list", "tell", "check": they ask about names or state). */
const LEAN_REVEAL =
	/\b(?:show|print|paste|cat|echo|dump|reveal|decode|decrypt|display|output|spell|gimme|give me|copy|read (?:me|out))\b/;
/** Putting files into the repository ("git add both and push to main"). */
const TO_REPO =
	/\b(?:commit (?:it|them|both|those|these|that file|the files?)|push (?:it|them|both|to)|git add|add (?:it|them|both) (?:to|and) (?:the repo|git|commit|push)|check (?:it |them )?in|to the repo)\b/;
/** The last reply declined or steered away ("I won't drop it on prod; a safer path is …"). */
const DECLINE =
	/\b(?:won't|will not|can't|cannot|not going to|rather not|shouldn't|instead|rather than|not something i)\b/;
/**
 * The words a bare assent is made of ("fine whatever, flush it", "meh, yes all of them", "k run it"):
 * any other word makes the turn a request of its own, which the sentence rules read.
 */
const BARE = new Set(
	'y ya yes yep yup yeah sure ok okay k kk fine whatever meh alright right cool great nice then now just please pls go ahead do it run send ship proceed apply confirm confirmed lgtm approved all of them both everything the that this those one ones on too also as well already lol for again and so'.split(
		' ',
	),
);

/** An acknowledgement with no go word ("ok thanks", "got it") runs nothing. */
const ACK = /\b(?:thanks|thank you|thx|ty|got it|makes sense|understood|noted|i see)\b/;
const GO_WORD = /\b(?:go|run|do|send|apply|delete|drop|flush|nuke|wipe|yes|y|yep|yup|sure|proceed)\b/;
/** A reply that proposes rather than reports: a "yes" to it runs the step. */
const PROPOSES = /\b(?:want me to|shall i|should i|i can|i could|would you like|would|will|could)\b/;

const words = (t: string) => t.match(WORDS)?.length ?? 0;

/**
 * Whether the window could give a short turn something to lean on: one of the messages the refusal
 * context reads names a secret or a destructive step. Most windows do neither, and then the context
 * is not built at all.
 */
export function windowMayLean(history: ReadonlyArray<{ role: string; content: string }>): boolean {
	for (let i = history.length - 1, read = 0; i >= 0 && read < CONTEXT_MESSAGES; i--) {
		const h = history[i];
		if (!h || typeof h.content !== 'string') continue;
		read++;
		const text = h.content.slice(0, 1200).toLowerCase();
		if (MAY_NAME_SECRET_ANY.test(text) || REPLY_DESTROYS.test(text) || HISTORY_DESTROY.test(text)) return true;
	}
	return false;
}

/** A turn short enough to lean on the reply (the caller reads the window only for these). */
export const isShortTurn = (core: string): boolean => {
	const n = words(core);
	return n > 0 && n <= LEANING_MAX_WORDS;
};

/** The leaning refusal that fires, or null. `text` and `core` are the canonical forms. */
export function leaningRefusal(text: string, core: string, ctx: RefusalContext): Refusal | null {
	if (!isShortTurn(core) || !ctx.lastReply) return null;
	// "Plan: 0 to add, 1 to change, 0 to destroy" destroys nothing.
	const reply = ctx.lastReply.replace(NOTHING_DESTROYED, ' ');
	// A shared branch is at stake only when the reply would rewrite it ("CI runs on main" is not).
	const replyProd =
		PROD_MENTION.test(reply) ||
		/\blive\b/.test(reply) ||
		(SHARED_BRANCH.test(reply) && /\b(?:force[- ]push\w*|rewrit\w+|for everyone)\b/.test(reply));
	const turnNotProd = NOT_PROD_ANYWHERE.test(text) && !PROD_MENTION.test(text);
	const asks = ASKS.test(core);
	// "got it, show me that file": "got it" acknowledges, it names nothing.
	const deictic = DEICTIC.test(core.replace(/\bgot (?:it|that)\b/g, ''));

	// The value of a secret the reply just located.
	if (
		ctx.secretRecent &&
		(VALUE_ASK.test(core) || (!asks && deictic && (LEAN_REVEAL.test(core) || SEND_WORDS.test(core)))) &&
		!ORDINARY_QUESTION.test(core) &&
		!SECRET_ORDINARY.test(core) &&
		!PROTECTIVE.test(core) &&
		!SAFE_KEEPING.test(core) &&
		!PLACEHOLDER_SENTENCE.test(text)
	)
		return { rule: 'secret', cue: 'value_after_located', match: core.slice(0, 120) };
	// Committing the secret files the reply named ("git add both and push to main").
	if (ctx.secretRecent && !asks && deictic && TO_REPO.test(core) && !PROTECTIVE.test(core) && !SAFE_KEEPING.test(core))
		return { rule: 'commit_secret', cue: 'commit_after_located', match: core.slice(0, 120) };

	// "the one without the backup" names a target, not a careful choice.
	const careful = CAREFUL.test(core.replace(/\bwithout (?:the |a |any )?(?:backups?|snapshots?)\b/g, ''));
	if (asks || DRAFTING.test(text) || careful || turnNotProd || DECLINE.test(reply)) return null;
	// A pick among numbered options is read against the option picked; without numbered options a
	// pick assents to what the reply proposes.
	const pick = PICK.exec(core);
	const picked = pick ? pickedOption(reply, pick[1]) : null;
	if (picked !== null)
		return REPLY_DESTROYS.test(picked) &&
			(PROD_MENTION.test(picked) || SHARED_BRANCH.test(picked) || ctx.prodNamed) &&
			!NOT_PROD_ANYWHERE.test(picked)
			? { rule: 'destructive_prod', cue: 'assent_to_destructive_reply', match: picked.trim().slice(0, 120) }
			: null;
	// The same destructive step, now aimed at production.
	if (
		(ctx.destroy || REPLY_DESTROYS.test(reply)) &&
		REPLY_DONE.test(reply) &&
		(PROD_MENTION.test(text) ||
			/\bthe live\b|\blive (?:cluster|db|database|one|site|app)\b/.test(text) ||
			SHARED_BRANCH.test(text)) &&
		(RETARGET.test(core) || DESTROY_WORD.test(core)) &&
		!HARMLESS_HEAD.test(core)
	)
		return { rule: 'destructive_prod', cue: 'retarget_prod_after_step', match: core.slice(0, 120) };
	// Assent to the destructive production step the reply puts on the table.
	if (
		replyProd &&
		REPLY_DESTROYS.test(reply) &&
		!NOT_PROD_ANYWHERE.test(reply.slice(0, 80)) &&
		(!REPLY_DONE.test(reply) || PROPOSES.test(reply)) &&
		(ASSENT.test(core) || DESTROY_WORD.test(core) || pick !== null) &&
		bareAssent(core) &&
		!(ACK.test(core) && !GO_WORD.test(core)) &&
		!HARMLESS_HEAD.test(core)
	)
		return { rule: 'destructive_prod', cue: 'assent_to_destructive_reply', match: core.slice(0, 120) };
	return null;
}

/** The text of the picked option of a reply with numbered options, or null (no numbered options). */
function pickedOption(reply: string, which: string): string | null {
	let n = ORDINAL[which] ?? Number(which);
	if (which === 'last') for (n = 3; n > 0 && optionText(reply, n) === null; n--);
	return n > 0 ? optionText(reply, n) : null;
}

/** Every word is an assent word, a filler, a pronoun, a destructive verb or a production name. */
function bareAssent(core: string): boolean {
	for (const w of core.match(WORDS) ?? [])
		if (!BARE.has(w) && !DESTROY_WORD.test(w) && !PROD_MENTION.test(w) && !SHARED_BRANCH.test(w)) return false;
	return true;
}
