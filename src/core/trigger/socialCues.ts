/**
 * Whole-message social formulas: greetings, acknowledgements and test probes. These are matched
 * as a unit (every phrase of the message must be social), never by searching for a word inside a
 * longer request — "thanks, but the test still fails" is not an acknowledgement.
 */
import type { TurnText } from '../text/turnText';

/** What a whole message is, socially; `null` when it carries content. */
export type SocialKind = 'greeting' | 'ack' | 'probe';

const GREETING_PHRASE =
	/^(?:hi|hello|hey|hiya|howdy|yo|greetings|morning|evening|good (?:morning|afternoon|evening|day)|how are you(?: doing| today)?|how's it going|how are things|what's up|whats up|sup)(?: (?:there|all|everyone|folks|team|again|assistant|bot|buddy|friend|mate|gmem|memory))?$/;

const PURE_ACK_PHRASES: ReadonlySet<string> = new Set([
	'thanks',
	'thank you',
	'thx',
	'ty',
	'tysm',
	'cheers',
	'ok',
	'okay',
	'k',
	'kk',
	'cool',
	'great',
	'nice',
	'perfect',
	'awesome',
	'got it',
	'gotcha',
	'sounds good',
	'makes sense',
	'alright',
	'all right',
	'fine',
	'good',
	'understood',
	'noted',
	'lgtm',
	'done',
	'right',
	'i see',
	'ah',
	'ahh',
	'oh',
	'wow',
	'neat',
	'sweet',
	'brilliant',
	'excellent',
	'no worries',
	'no problem',
	'np',
	'never mind',
	'nevermind',
	'nvm',
	'no thanks',
	'no thank you',
	'thanks a lot',
	'thanks so much',
	'thank you so much',
	'thank you very much',
	'many thanks',
	'much appreciated',
	'appreciated',
	'that works',
	'that worked',
	'it works',
	'it worked',
	'it works now',
	'works now',
	'that helps',
	'that helped',
	'great thanks',
	'ok thanks',
	'okay thanks',
	'ok thank you',
	'thanks again',
	'good job',
	'well done',
	'nice one',
	'love it',
	'bye',
	'goodbye',
	'see you',
	'later',
	'good night',
	'ack',
	'roger',
	'will do',
	'on it',
	'fair enough',
	'true',
	'indeed',
	'exactly',
	'agreed',
	'correct',
	// Reactions: the user takes in the answer; nothing is asked or told.
	'hmm',
	'hm',
	'huh',
	'interesting',
	'oh ok',
	'oh okay',
	'ah ok',
	'ah okay',
	'ah i see',
	'oh i see',
	'ok cool',
	'cool thanks',
	'that makes sense',
	"that's great",
	'that is great',
	"that's perfect",
	"that's right",
	'that is right',
	'that helps a lot',
	'perfect thanks',
	'great thanks a lot',
	'nice thanks',
	'makes sense thanks',
	"that's clear",
	'that is clear',
	'all clear',
	'crystal clear',
	'clear',
	// Closing the session: nothing asked, nothing told.
	"that's all",
	'that is all',
	"that's it",
	"that's all for today",
	"that's all for now",
	"that'll be all",
	'done for today',
	"that's it for today",
	"that's it for now",
	// Dropping the matter.
	'actually never mind',
	'actually nevermind',
	'actually nvm',
	'oh never mind',
	'never mind then',
	'forget it',
	'oh forget it',
	'just forget it',
]);

// Answers and go-aheads: the user says yes or no to what was proposed. Still acknowledgements for
// the trigger (nothing to look up), but they depend on the proposal, unlike "thanks".
const ANSWER_PHRASES: ReadonlySet<string> = new Set([
	'sure',
	'yes',
	'yep',
	'yeah',
	'yup',
	'no',
	'nope',
	'yes please',
	'sure thing',
	'go ahead',
	'ship it',
	'go for it',
	'do it',
	'yes do it',
	'please do',
	'proceed',
	'please proceed',
	"let's do it",
	'lets do it',
	'merge it',
]);

const ACK_PHRASES: ReadonlySet<string> = new Set([...PURE_ACK_PHRASES, ...ANSWER_PHRASES]);

// Test probes: the user checks the assistant is alive. Anchored on the whole message.
const PROBE =
	/^(?:test(?:ing)?(?: test(?:ing)?)*(?: \d+)*|test \d+|ping|pong|asdf\w*|qwer\w*|zxcv\w*|jkl\w*|foo(?:bar)?|lorem ipsum(?: \w+)*|hello world|is this (?:thing )?on|are you (?:there|alive|awake|working)|anyone (?:there|home)|can you hear me|\d{1,4}(?: \d{1,4})*|[^aeiouy\s\d]{5,})$/;

const EMOJI = /\p{Extended_Pictographic}/u;
const PHRASE_SPLIT = /[,.!?;:]+|\s+-+\s+/;
// Characters that carry no words: emoji, symbols, stray quotes.
const NON_WORDS = /[^\p{L}\p{N}'\s,.!?;:-]+/gu;

// Every first word a social formula can start with; anything else skips the phrase analysis
// (the common case: a real request), which keeps this check off the hot path.
const SOCIAL_FIRST_WORDS: ReadonlySet<string> = new Set([
	...[...ACK_PHRASES].map((p) => p.split(' ')[0]),
	..."hi hello hey hiya howdy yo greetings morning evening good how how's what's whats sup".split(' '),
	...'test testing ping pong foo foobar lorem hello is are anyone can'.split(' '),
]);
const MASH_OR_NUMBER = /^(?:\d|asdf|qwer|zxcv|jkl|[^aeiouy\d]{5,}$)/;
const MAX_SOCIAL_WORDS = 12;

/** A message starting with this word may be a social formula; any other first word rules it out. */
export function couldStartSocial(word: string | undefined): boolean {
	return word === undefined || SOCIAL_FIRST_WORDS.has(word) || MASH_OR_NUMBER.test(word);
}

function couldBeSocial(words: readonly string[]): boolean {
	if (words.length === 0) return true;
	if (words.length > MAX_SOCIAL_WORDS) return false;
	return SOCIAL_FIRST_WORDS.has(words[0]) || MASH_OR_NUMBER.test(words[0]);
}

/** Splits normalised text into trimmed phrases, dropping emoji and empty pieces. */
function phrasesOf(text: string): string[] {
	const out: string[] = [];
	for (const p of text.replace(NON_WORDS, ' ').split(PHRASE_SPLIT)) {
		const t = p.replace(/\s+/g, ' ').trim();
		if (t) out.push(t);
	}
	return out;
}

/**
 * Classifies a message that consists only of social phrases. A probe wins over a greeting
 * ("hello world" is a test), a greeting over an acknowledgement ("hi, thanks" opens a turn).
 * Returns null when any phrase carries content.
 */
export function socialKind(t: TurnText): SocialKind | null {
	if (!couldBeSocial(t.words)) return null;
	const bare = t.text
		.replace(NON_WORDS, ' ')
		.replace(/[.!?,;:]+/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	if (bare !== '' && PROBE.test(bare)) return 'probe';
	const phrases = phrasesOf(t.text);
	// Only symbols left: a thumbs-up acknowledges, "???" or "..." probes.
	if (phrases.length === 0) return t.text.length === 0 ? null : EMOJI.test(t.text) ? 'ack' : 'probe';
	let greeting = false;
	for (const p of phrases) {
		if (GREETING_PHRASE.test(p)) greeting = true;
		else if (!ACK_PHRASES.has(p)) return null;
	}
	return greeting ? 'greeting' : 'ack';
}

/**
 * A social message with nothing to resolve: a greeting, a probe or a pure acknowledgement
 * ("thanks", "ok, got it", 👍). Null for anything else, including answers and go-aheads ("yes",
 * "do it"), which accept or refuse what was proposed and so depend on it.
 */
export function freestandingSocial(t: TurnText): SocialKind | null {
	const kind = socialKind(t);
	if (kind !== 'ack') return kind;
	return phrasesOf(t.text).some((p) => ANSWER_PHRASES.has(p)) ? null : kind;
}
