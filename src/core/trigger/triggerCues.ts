/**
 * Cue tables for the retrieval trigger (seed 004). Which table a cue lives in IS the policy:
 * "remember?" at the end tells the store (correction), "do you remember" asks it (recall).
 * Every pattern matches whole words or phrases on normalised text (see text/turnText.ts).
 */
import { cueTable, type CueTable } from '../text/turnText';

// Optional lead-in words that do not change what a turn is ("please always …", "ok, actually …").
const LEAD = String.raw`^(?:(?:please|pls|and|also|ok|okay|so|but|oh|hmm|well|hey|now)\s*,?\s+)*`;

/** A turn that says a belief (the assistant's or the store's) is wrong. Checked first. */
export const CORRECTION_CUES: CueTable = cueTable([
	// "I left Northwind last month, remember?" tells the store; "do you remember?" asks it.
	{
		name: 'remember_tag',
		re: /(?<!\b(?:do|did|can|could|will|would|don't|dont)\s+(?:you|u)\s+(?:still\s+)?)\bremember\s*\?+[\s!.]*$/,
	},
	{
		name: 'no_prefix',
		re: /^(?:no|nope|nah)(?:\s*[,.!:;-]\s*(?!thanks?\b|thank you\b|worries\b|problem\b)\S|\s+(?:i|we|it|that|this|you|the|not)\b)/,
	},
	{ name: 'i_meant', re: /\b(?:i meant(?! to ask\b)|what i meant|what i mean is|i was referring to)\b/ },
	{
		name: 'wrong',
		re: /\b(?:that(?:'s| is| was)|it(?:'s| is| was)|you(?:'re| are| were)|this is|thats)\s+(?:still\s+)?(?:not\s+(?:right|correct|true|accurate|what i (?:said|asked|meant|wanted))|wrong|incorrect|inaccurate|outdated|out of date|mistaken|false)\b(?! to\b)/,
	},
	// "the README is out of date": the user says a document the project keeps is wrong (a fact to
	// store, like a correction of a stored belief), not a question about it.
	{
		name: 'doc_wrong',
		re: /\bthe (?:readme|docs?|documentation|wiki|comment|docstring|changelog|guide|runbook)(?:\.md)? (?:is|are|was|were) (?:still |now |totally |completely )?(?:wrong|incorrect|outdated|out of date)\b/,
	},
	{ name: 'not_what_i', re: /\bnot what i (?:said|asked|meant|wanted)\b/ },
	{
		name: 'misunderstood',
		re: /\byou (?:misunderstood|misread|got (?:it|that|this) wrong|are confusing|'re confusing)\b/,
	},
	{
		name: 'no_longer',
		re: /\b(?:i|we)(?:'re|'m| are| am)? no longer\b|\b(?:i|we) (?:don't|do not|dont) (?:\w+ ){1,3}any ?more\b|^not any ?more\b/,
	},
	{ name: 'switched', re: /\b(?:i|we)(?:'ve| have)? (?:switched|moved|migrated|changed) (?:over )?(?:from|to)\b/ },
	{ name: 'correction_tag', re: /^(?:correction|to clarify|just to clarify|small correction)\b/ },
	// "we use pnpm, not npm": an explicit replacement of one value by another.
	{ name: 'x_not_y', re: /,\s*not\s+(?:the\s+|a\s+|an\s+)?[\w.@/+#-]+\s*[.!]*$/ },
]);

/** "actually …" corrects only when declarative; "actually, can you also …?" is a request. */
export const ACTUALLY = /^(?:(?:well|oh|hmm|no)\s*,?\s+)?actually\b/;

/** A standing rule for future turns, a preference, or a directive to the memory itself. */
export const INSTRUCTION_CUES: CueTable = cueTable([
	// A time scope followed by a wh-question ("going forward, how should we version it?") asks.
	{
		name: 'from_now_on',
		re: /\b(?:from now on|going forward|from here on(?: out)?|henceforth|for all future \w+|every time you|each time you|in (?:the )?future(?=,? (?:please|always|never|you|answer|reply|respond|use|write|don't|do not)\b)|by default(?=,? (?:please|always|never|use|answer|reply|respond|write)\b))\b(?!,?\s+(?:how|what|where|when|which|why|who)\b)/,
	},
	{ name: 'always_never', re: new RegExp(LEAD + String.raw`(?:always|never)\s+(?!mind\b)\w`) },
	{
		name: 'standing_dont',
		re: new RegExp(
			LEAD +
				String.raw`(?:don't|do not|dont|stop)\s+(?:ever\s+)?(?:use|using|add|adding|write|writing|include|including|suggest|suggesting|put|putting|give|giving|apologi[sz]e|apologi[sz]ing|explain|explaining|repeat|repeating)\b`,
		),
	},
	{
		name: 'answer_style',
		re: /\b(?:keep|make)\s+(?:your\s+|the\s+|all\s+)?(?:answers?|responses?|replies|explanations?|messages?|code samples?)\s+(?:short|shorter|brief|briefer|concise|terse|simple|simpler|longer|detailed)\b/,
	},
	{
		name: 'be_style',
		re: new RegExp(
			LEAD + String.raw`be\s+(?:more\s+|less\s+)?(?:concise|brief|terse|detailed|verbose|formal|casual|direct)\b`,
		),
	},
	{
		name: 'answer_in',
		re: /\b(?:answer|reply|respond|write|talk|speak)\s+(?:to me\s+)?in\s+(?:english|french|german|spanish|italian|portuguese|dutch|japanese|chinese|korean|russian|polish|swedish|ukrainian|bullet points|bullets)\b/,
	},
	{ name: 'call_me', re: /\b(?:call me|address me as|refer to me as)\b/ },
	{
		name: 'prefer',
		re: /(?<!\b(?:do|did|does|would|should|can|will|what)\s)\bi(?:'d| would)? (?:prefer|rather)\b|\bmy preference is\b/,
	},
	{
		name: 'remember_that',
		re: new RegExp(LEAD + String.raw`(?:remember|note|keep in mind|make a note|take note)\s*(?:that\b|:|,)`),
	},
	{
		name: 'use_instead',
		re: new RegExp(
			LEAD +
				String.raw`(?:use|prefer|pick|choose)\s+[\w.@/+#-]+(?:\s+[\w.@/+#-]+)?\s+(?:instead of|rather than|over)\b`,
		),
	},
	{
		name: 'use_style',
		re: new RegExp(
			LEAD +
				String.raw`use\s+(?:tabs|spaces|\d+ spaces|single quotes|double quotes|semicolons|british spelling|american spelling|metric units)\b`,
		),
	},
	// Directives about what the memory keeps (privacy): instructions to the store, never questions to it.
	{
		name: 'memory_directive',
		re: /\b(?:forget (?:that|this|it|what i (?:said|told you)|everything|about (?:me|it|that|this)|my\b)|(?:don't|do not|dont) (?:remember|store|save|record|log|keep|memori[sz]e) (?:this|that|it|anything|any of|my)|off the record|(?:delete|erase|wipe|clear|remove) (?:my (?:data|profile|history|memory|information|info)|everything you know about me|your memory|what you know about me)|keep (?:this|it|that) (?:private|between us|confidential))\b/,
	},
]);

/**
 * A decision being made or reported ("let's go with option B", "we decided to use Postgres"):
 * it tells, so it is a statement — written to research memory, never a search.
 */
export const DECISION: CueTable = cueTable([
	// At the start, or after a lead clause ("change of plans, we'll use Redis").
	{
		name: 'decision',
		re: new RegExp(
			String.raw`(?:${LEAD}|[,;:.!]\s+)(?:let's|let us|lets|we'll|we will|i'll|i will)\s+(?:go with|use|stick with|keep|pick|choose|adopt|switch to|stay with)\b`,
		),
	},
	{
		name: 'decided',
		re: /\b(?:we|i) (?:have |'ve )?(?:decided|agreed|settled on|chose|picked|went with|are going with|'re going with)\b/,
	},
]);

/** The user asks the store for something said or decided before. */
export const RECALL_CUES: CueTable = cueTable([
	{ name: 'remember_when', re: /^(?:hey,? |so,? )?remember (?:when|how|what|why|where|which|that time|the time)\b/ },
	{ name: 'do_you_remember', re: /\b(?:do|did|can|could) you (?:still )?(?:remember|recall)\b/ },
	{
		name: 'what_did_we',
		re: /\bwhat (?:did|have|had) (?:we|you and i|i|you) (?:decide|decided|agree|agreed|say|said|settle|settled|choose|chose|chosen|pick|picked|conclude|concluded|discuss|discussed|tell|told|mention|mentioned|suggest|suggested|recommend|recommended)\b/,
	},
	{
		name: 'what_do_you_know',
		re: /\bwhat (?:do|did) you (?:know|remember|recall|have stored|store|have on file) (?:about|on|regarding)\b/,
	},
	{ name: 'remind_me', re: /\bremind me\b/ },
	{
		name: 'earlier',
		re: /\b(?:last time|earlier (?:you|we)|you (?:said|told me|mentioned|suggested) (?:earlier|before|last|yesterday|previously)|as (?:we|you) (?:discussed|said|agreed|decided)|we (?:talked|spoke) about|(?:previously|earlier) (?:discussed|decided|agreed)|the other day)\b/,
	},
	{ name: 'did_we', re: /\b(?:did|have) we (?:ever |already )?(?:decide|discuss|talk|agree|settle|try|choose|pick)\b/ },
	{
		name: 'our_decision',
		re: /\bwhat (?:was|is|were) (?:the|our) (?:decision|conclusion|agreement|verdict|outcome)\b/,
	},
]);

// Imperatives that ask for work. Words that are more often nouns at the start of a statement
// ("cache", "type", "log", "profile") are left out: a misfire would turn a statement into a query.
const REQUEST_VERBS =
	'refactor|fix|explain|write|add|implement|create|show|find|debug|rename|update|generate|make|convert|summari[sz]e|list|check|run|tell|give|help|describe|review|optimi[sz]e|document|delete|remove|move|build|install|set up|setup|migrate|translate|rewrite|rephrase|reword|compare|suggest|brainstorm|search|look|open|walk|outline|draft|split|extract|replace|change|modify|improve|simplify|clean up|format|lint|test|deploy|configure|port|benchmark|investigate|analy[sz]e|diagnose|print|read|fetch|get|paste|continue|elaborate|expand|clarify|define|recommend|sketch|propose|upgrade|downgrade|revert|undo|redo|commit|merge|rebase|scaffold|bump|shorten|proofread|annotate|validate|parse|serialize|go on|keep going|tl;?dr';

/** The turn asks for something: a question, or a request phrased as an imperative. */
export const QUESTION_CUES: CueTable = cueTable([
	{ name: 'wh_start', re: /^(?:who|whom|whose|what|what's|whats|when|where|where's|which|why|how|how's)\b/ },
	{
		name: 'aux_start',
		re: /^(?:can|could|would|will|should|shall|may|might|is|are|was|were|do|does|did|have|has|had|am|isn't|aren't|doesn't|don't|didn't|won't|wouldn't|can't|couldn't|shouldn't)\s+(?:i|you|we|it|this|that|these|those|there|they|he|she|the|my|our|your|a|an|any|anyone|someone|something|anything)\b/,
	},
	{
		name: 'request_verb',
		re: new RegExp(
			String.raw`^(?:(?:please|pls|kindly|now|so|then|and|also|quickly|just)\s*,?\s+)*(?:${REQUEST_VERBS})\b`,
		),
	},
	{
		name: 'request_phrase',
		re: /\b(?:i need (?:to|a|an|some|help)|i want to|i'd like (?:to|you to)|i would like (?:to|you to)|help me|how to|can i|is there a way|any ideas?\b|i wonder|i'm wondering|i am wondering|not sure (?:how|why|what|whether|if)|let's|lets)\b/,
	},
]);

// Things that go wrong: said of code, a build, a page or a user's experience of them.
const FAILURE_VERBS = String.raw`fails|failed|failing|crash(?:es|ed|ing)?|hangs|hung|hanging|freez(?:es|ing)|froze|frozen|throws|threw|throwing|errors? out|erroring|errored|time(?:s|d)? out|timing out|breaks|broke|broken|segfaults?|panic(?:s|ked)?|leaks?|leaking|stalls?|stalled|stuck|flaky|flakes|blows up|blew up|falls over|dies|died`;
const BAD_STATES = String.raw`empty|blank|missing|null|undefined|nan|wrong|incorrect|off by (?:one|\w+ (?:cents?|pixels?|days?|hours?))|duplicated|doubled|corrupt(?:ed)?|out of sync|slow|sluggish|laggy|red|down|unresponsive|garbled|truncated|not (?:saved|sent|called|updated|showing|shown|loading|loaded|found|working|rendered|triggered)`;
const SYMPTOM_NOUNS = String.raw`\w*(?:error|exception)s?|warnings?|failures?|crash(?:es)?|null pointers?|npe|nullpointerexception|stack ?traces?|segfaults?|panics?|timeouts?|deadlocks?|race conditions?|memory leaks?|leaks?|404s?|500s?|5\d\d|4\d\d|regressions?|bugs?|duplicates?`;

/**
 * A problem report asks for help even without a question mark ("the build fails after the
 * upgrade", "getting a null pointer in the parser", "emails are sent twice"). Checked on the whole
 * turn, not only its start: the symptom is often at the end.
 */
export const PROBLEM_CUES: CueTable = cueTable([
	{
		name: 'not_working',
		re: /\b(?:not working|(?:doesn't|does not|don't|do not|won't|will not|can't|cannot|couldn't|isn't|aren't|wasn't) (?:work|working|compile|build|start|run|load|find|resolve|connect|import|install|pass|render|save|show|update|respond|return|open|close|submit|scroll|click|sync|deploy|log in|login)|(?:stopped|stops|quit) (?:working|responding|loading)|no longer (?:works?|compiles?|builds?|runs?|loads?|passes?)|does nothing|do nothing|doesn't do anything|nothing happens)\b/,
	},
	{ name: 'failure_verb', re: new RegExp(String.raw`\b(?:${FAILURE_VERBS})\b`) },
	// "I was wrong" corrects oneself; "the total is wrong" reports a problem.
	{
		name: 'bad_state',
		re: new RegExp(
			String.raw`(?<!\b(?:i|we|you)\s)\b(?:is|are|was|were|be|been|is still|are still|keeps? being|comes? (?:back|out)|stays?|stayed|remains?|remained|shows?|looks?|gets?|got|returns?|returned|become|became|turns?|turned) (?:(?:always|sometimes|still|now|all|completely|really|very|so|too|randomly|suddenly) )?(?:${BAD_STATES})\b`,
		),
	},
	{
		name: 'repeated_effect',
		re: /\b(?:sent|go out|goes out|went out|come through|comes through|called|fired|run|ran|triggered|charged|logged|created|saved|processed|rendered|inserted|imported|emitted|invoked|executed) (?:twice|two times|three times|multiple times|several times|repeatedly|again and again|more than once)\b|\b(?:never|doesn't|does not) (?:stops?|ends?|finish(?:es)?|returns?|resolves?|completes?|fires?|gets? called|terminates?)\b|\bkeeps? (?:\w+ing)\b|\bgets? (?:logged|kicked|signed) out\b/,
	},
	{
		name: 'symptom',
		re: new RegExp(
			String.raw`\b(?:getting|seeing|hitting|receiving|got|get|see|hit|throws?|raises?|gives?|shows?|returns?) (?:(?:an?|the|this|that|these|some|a lot of|lots of|random|weird|strange|intermittent|occasional)\s+)?(?:[\w.'-]+\s+){0,3}?(?:${SYMPTOM_NOUNS})\b`,
		),
	},
	{ name: 'expected_got', re: /\bexpected\b.{1,80}\b(?:but|instead)\b.{0,10}\b(?:got|received|returned|saw|was|is)\b/ },
]);

/** The problem is over ("…, but I fixed it", "works now"): the turn tells, it asks for nothing. */
export const RESOLVED =
	/\b(?:(?:i|we)(?:'ve| have)? (?:fixed|solved|resolved|sorted|worked around) (?:it|that|this|the \w+)|(?:is|are|it's|that's) (?:fixed|resolved|solved|working) now|works now|fixed now|(?:is|are) gone|went away|no longer (?:fails|crashes|happens))\b/;

/** A declarative turn: a subject first, or a finite verb somewhere. Tells rather than asks. */
export const DECLARATIVE =
	/^(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|we'd|we'll|my|our|it|it's|its|this|that|that's|these|those|there|there's|the|he|she|they|they're|you|you're|your|a|an|everything|nothing|someone|everyone|today|yesterday|tomorrow)\b|\b(?:is|are|was|were|am|have|has|had|use|uses|used|work|works|worked|need|needs|want|wants|like|likes|left|joined|moved|prefer|decided|agreed|fixed|added|changed|removed|will|won't|runs|ran|lives|live)\b/;
