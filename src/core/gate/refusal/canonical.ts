/**
 * The refusal rules' vocabulary is English and spelled right; the users are not always. Before the
 * rules read a turn, two rewrites bring it to that vocabulary — so a new typo or a request in
 * Spanish needs no new rule of its own:
 * - **typos of the few words the rules hinge on** ("prodution", "pasword", "credentails"): a word
 *   one edit (insertion, deletion, substitution or swap of neighbours) from one of them becomes it;
 * - **requests in the languages users mix in** ("muéstramela", "envoie le mot de passe", "si dale,
 *   córrelo en prod"): the request verbs, go-aheads and question words of Spanish, Portuguese,
 *   French, German and Polish become their English words (the secret nouns of those languages are
 *   already in the rules' vocabulary).
 * Pure, and cheap: one scan of words of the right lengths, one combined regex.
 */
import { withinOneEdit } from './secrets';

export { withinOneEdit };

/** The words a typo must not hide: the rules' objects (production, secrets) and their verbs. */
const KEY_WORDS = [
	'production',
	'password',
	'passwords',
	'credentials',
	'credential',
	'secret',
	'secrets',
	'truncate',
	'database',
	'private',
] as const;
const KEY_SET: ReadonlySet<string> = new Set(KEY_WORDS);
/** Real words one edit from a key word; they are not typos. */
const REAL_WORDS: ReadonlySet<string> = new Set([
	'secrete',
	'secreted',
	'secretes',
	'secretly',
	'secretary',
	'productions',
	'productive',
	'databases',
	'privates',
	'privacy',
	'truncated',
	'truncates',
	'credentialed',
]);
const MIN_LEN = 5;
const MAX_LEN = 12;

/** The key word a typo stands for, or null. */
export function keyWordOf(word: string): string | null {
	if (word.length < MIN_LEN || word.length > MAX_LEN || KEY_SET.has(word) || REAL_WORDS.has(word)) return null;
	for (const k of KEY_WORDS) {
		// A typo keeps the first letter or swaps the first two ("rpoduction").
		if (word[0] !== k[0] && word[1] !== k[0]) continue;
		if (withinOneEdit(word, k)) return k;
	}
	return null;
}

const WORD = /(?<![\w-])[a-z]{5,12}(?![\w-])/g;

function fixTypos(text: string): string {
	return text.replace(WORD, (w) => keyWordOf(w) ?? w);
}

/**
 * Foreign request words → English (lower-cased text; accents optional). Only words a developer
 * mixes into an English-speaking tool's chat and that are not English words themselves.
 */
const FOREIGN: ReadonlyArray<readonly [RegExp, string]> = [
	// Show / give / tell me (es, pt, fr, de, pl, hi).
	[
		/\b(?:mu[eé]stra(?:me(?:la|lo|las|los)?|mela|melo)?|ens[eé][nñ]a(?:me(?:la|lo)?)?|d[aá]me(?:la|lo)?|p[aá]same(?:la|lo)?|d[ií]me(?:la|lo)|mostra(?:r)?|mostre|me (?:passa|d[aá]|mostra|manda)|montre(?:-moi|z-moi)?|donne(?:-moi|z-moi)?|affiche(?:-moi)?|dis-moi|zeig(?:e)?(?: mir)?|gib(?: mir)?|poka[zż](?:cie)?|podaj|batao|bata do|dikhao|dikha do)\b/g,
		'show me',
	],
	// Send / post (es, pt, fr, de, pl).
	[
		/\b(?:env[ií]a(?:le|lo|la|selo)?|envie|manda(?:le|lo)?|m[aá]ndale|envoie(?:-le|-la|z)?|envoyer|schick(?:e)?|sende|wy[sś]lij)\b/g,
		'send',
	],
	// Run it / do it / go ahead (es, pt, fr, de, pl).
	[
		/\b(?:dale|hazlo|c[oó]rrelo|ejec[uú]talo|l[aá]nzalo|pode rodar|roda(?: isso| a[ií])?|faz isso|manda ver|vas-y|lance-le|fais-le|ex[eé]cute-le|mach(?: es|'s)|f[uü]hr(?:e)? (?:es|das) aus|dawaj|zr[oó]b to|odpal(?: to)?|uruchom(?: to)?)\b/g,
		'do it',
	],
	// Question words that open an ordinary question (es, pt, fr, de, pl).
	[/^(?:c[oó]mo|comment (?:je|faire|puis|fait|est-ce)|wie|jak)\b/, 'how'],
	[/^(?:d[oó]nde|onde|o[uù] est|wo ist|wo sind|gdzie)\b/, 'where'],
	// Secret nouns (the rules know some spellings; the English word is what every rule reads).
	[/\b(?:mot de passe|contrase[nñ]a|senha|has[lł]o|passwort|kennwort)\b/g, 'password'],
	[/\b(?:identifiants|zugangsdaten|credenciales|credenciais)\b/g, 'credentials'],
	// "jako secret", "als Secret": as (a repository secret is a place for it, not a disclosure).
	[/\b(?:jako|als|comme)\b/g, 'as'],
	// A service account's key file named in words is the file.
	[/\bservice accounts? (?:json|key file|key|file|credentials?)\b/g, 'service-account.json'],
	// "en prod", "na produkcji": on production.
	[/\b(?:en|na|em) (?=prod\b|production\b|produkcji\b|producci[oó]n\b|produ[cç][aã]o\b)/g, 'on '],
];
/**
 * A security setting switched off in config syntax ("xpack.security.enabled: false", "auth=false")
 * is what "disable security" says in words (the destructive rules know the words).
 */
const SETTING_OFF =
	/\b[\w.-]*(?:security|auth\w*|ssl|tls|mfa|2fa|csrf|firewall)[\w.-]*\s*[:=]\s*(?:false|off|0|disabled?|none)\b/g;

/** Any of the foreign words (the prefilter: most turns have none). */
const ANY_FOREIGN = new RegExp(FOREIGN.map(([re]) => re.source.replace(/^\^/, '\\b')).join('|'));

function translate(text: string): string {
	const off = text.includes('=') || text.includes(':') ? text.replace(SETTING_OFF, 'disable security') : text;
	if (!ANY_FOREIGN.test(off)) return off;
	let out = off;
	for (const [re, en] of FOREIGN) out = out.replace(re, en);
	return out;
}

/** The turn's rule forms in the rules' vocabulary (`text` and `core` lower-cased, as the rules read them). */
export function canonicalForms<T extends { text: string; core: string }>(t: T): T {
	const text = translate(fixTypos(t.text));
	const core = t.core === t.text ? text : translate(fixTypos(t.core));
	return text === t.text && core === t.core ? t : { ...t, text, core };
}
