/**
 * Explicit memory commands typed in chat: "remember that …" / "forget that …". A command is a
 * directive to the store at the start of the turn, with content after it; everything else stays
 * with the ordinary rules: "do you remember…" and "remember when…" ask (recall), "I forgot to…"
 * reports, "forget it, let's do X" dismisses, "remember to call retry() before…?" asks. A turn with
 * a question mark is never a command: it asks something, and the rules answer it. Pure; no I/O.
 */

/** Where a remembered text goes: research memory (a project fact), the profile (about the user), or a standing instruction. */
export type RememberTarget = 'research' | 'profile' | 'instruction';

export type MemoryCommand =
	| { action: 'remember'; text: string; target: RememberTarget; rule: string; match: string }
	| { action: 'forget'; query: string; rule: string; match: string };

// Lead-in words that do not change what the turn is ("ok, please remember that …").
const LEAD = String.raw`^(?:(?:please|pls|and|also|ok|okay|so|but|oh|hey|now|btw|fyi|one more thing|one thing)\b[\s,:;.!—–-]*)*`;

const REMEMBER: { name: string; re: RegExp }[] = [
	{
		// "remember that X", "please remember: X", "keep in mind that X", "remember for always: X", "don't forget that X".
		name: 'remember_that',
		re: new RegExp(
			LEAD +
				String.raw`(?:please\s+)?(remember|memori[sz]e|keep in mind|bear in mind|make a note|take a note|take note|note down|(?:don't|do not|dont) forget)` +
				String.raw`(?:\s+(?:this|for (?:always|ever|later|the future|next time)|for me|going forward|permanently))*` +
				String.raw`\s*(?::|—|–|\s-\s|,?\s+that\b)\s*(.+)$`,
			'is',
		),
	},
	// "remember to always run lint first": a standing directive, never "remember to call retry() before…".
	{
		name: 'remember_to',
		re: new RegExp(LEAD + String.raw`(?:please\s+)?(remember) to\s+((?:always|never)\b.+)$`, 'is'),
	},
];

const FORGET: { name: string; re: RegExp }[] = [
	{
		name: 'forget_that',
		re: new RegExp(
			LEAD +
				String.raw`(?:please\s+)?(forget (?:that|about|what i (?:said|told you|mentioned|wrote) (?:about|regarding)|the (?:memory|note|fact) (?:about|that)|everything (?:about|you know about)|my))\s+(?![,.;:!—–-])(.+)$`,
			'is',
		),
	},
	{
		name: 'stop_remembering',
		re: new RegExp(
			LEAD + String.raw`(?:please\s+)?(stop remembering|(?:don't|do not|dont) remember)(?:\s+that)?\s+(?![,.;:!])(.+)$`,
			'is',
		),
	},
	{
		name: 'delete_memory',
		re: new RegExp(
			LEAD +
				String.raw`(?:please\s+)?((?:delete|drop|remove|erase|clear|wipe) (?:the |that |your |any |this )?(?:memory|memories|note|notes|stored fact)\s+(?:about|that|of|on|saying|regarding))\s+(.+)$`,
			'is',
		),
	},
];

/** What follows "forget" when it dismisses an idea rather than naming a memory ("forget that idea, …", "forget about it"). */
const DISMISSAL =
	/^(?:it|that|this|them|those|these|all (?:that|this|of (?:it|that|this))|everything|the rest|for now|idea|plan|approach|option|suggestion|one|part|bit|thought|last (?:one|part|bit|message|answer|reply)|what i (?:just )?said)\b[\s,.;:!—–-]*(?:$|[,;—–-]|\b(?:let's|lets|we'll|we will|i'll|just|instead|and|then|never ?mind)\b)/i;
/** A clause that moves on ("…, let's use X instead", "… for now"): the turn dismisses, it does not name a memory. */
const MOVES_ON =
	/[,;—–-]\s*(?:let's|lets|we'll|we will|i'll|just|instead|never ?mind|go with|use)\b|\bfor (?:now|the moment|the time being)\b/i;
/** "remember that time / incident / bug …" points at a past event (recall), it does not state a fact. */
const PAST_EVENT =
	/^(?:one )?(?:time|day|week|night|incident|outage|bug|issue|problem|error|crash|mess|discussion|meeting|conversation|chat|call|talk|thing|fix|change|pr|ticket|release|deploy|migration)(?:\s+(?:when|we|i|you|they|in|with|from|at|on|last|yesterday|ago|back|where|that)\b|\s*$|\s*[,.!])/i;

/** Text about the user (their facts, preferences, plans): the profile rather than research memory. */
const ABOUT_USER =
	/^(?:i|i'm|im|i am|i've|i'd|my|me|call me)\b|\b(?:i|we) (?:prefer|like|dislike|hate|love|rather)\b|\bmy (?:name|preferred|preference|pronouns|timezone|time zone|birthday|role|team|manager)\b/i;
/** Text that tells the assistant how to behave: a standing instruction. */
const DIRECTIVE =
	/^(?:always|never|don't|do not|dont|use|prefer|answer|reply|respond|write|format|keep|avoid|stop|call me|address me|refer to me|be)\b|\b(?:you should|you must|from now on|going forward|whenever you|every time you|each time you)\b/i;

function tidy(s: string): string {
	return s
		.replace(/\s+/g, ' ')
		.replace(/^["'“”‘’\s]+|["'“”‘’\s]+$/g, '')
		.trim();
}

/** The target a remembered text belongs in. */
export function rememberTarget(text: string, rule: string): RememberTarget {
	if (rule === 'remember_to' || DIRECTIVE.test(text)) return 'instruction';
	if (ABOUT_USER.test(text)) return 'profile';
	return 'research';
}

/**
 * The explicit memory command in a turn, or null when the turn is not one. `text` keeps the
 * user's own words (case, punctuation) minus the command; `query` is what to look for to forget.
 */
export function recogniseMemoryCommand(utterance: string): MemoryCommand | null {
	const raw = utterance.replace(/[’‘]/g, "'").trim();
	if (!raw || raw.includes('?')) return null;
	for (const { name, re } of FORGET) {
		const m = re.exec(raw);
		if (!m) continue;
		const rest = tidy(m[2].replace(/\s+(?:for me|from (?:your )?memory|please)[.!]*$/i, ''));
		if (!rest || DISMISSAL.test(rest) || MOVES_ON.test(rest)) return null;
		const query = m[1].toLowerCase().endsWith(' my') ? `my ${rest}` : rest;
		return { action: 'forget', query: query.replace(/[.!]+$/, ''), rule: name, match: m[1].toLowerCase() };
	}
	for (const { name, re } of REMEMBER) {
		const m = re.exec(raw);
		if (!m) continue;
		const text = tidy(m[2]);
		if (
			!/[a-z0-9]/i.test(text) ||
			(/\bthat$/i.test(m[0].slice(0, m[0].length - m[2].length).trim()) && PAST_EVENT.test(text))
		)
			return null;
		return { action: 'remember', text, target: rememberTarget(text, name), rule: name, match: m[1].toLowerCase() };
	}
	return null;
}
