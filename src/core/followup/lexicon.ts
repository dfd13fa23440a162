/**
 * Word lists behind the follow-up signals. They are general English function words and
 * discourse markers plus a short list of coding artifacts — not vocabulary of any data set.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/**
 * Third-person and demonstrative pronouns: each needs an antecedent. "that" and "there" are
 * handled separately because they are often not anaphoric (relative "that", existential "there").
 */
export const ANAPHORIC_PRONOUNS = set(`
	it its itself they them their theirs themselves he him his himself she her hers herself
	this these those
`);

/** Words after "this"/"these" that point at the present time or the user's own environment, not back at the conversation. */
export const DEICTIC_NON_ANAPHORA = set(`
	year month week weekend morning evening afternoon time season century decade way
	repo repository project codebase workspace folder directory machine computer laptop environment setup
`);

/** Words before "that" which make it a demonstrative (about that, is that, why that...). */
export const THAT_DEMONSTRATIVE_BEFORE = set(`
	about of for with from to in on at by like than into over after before without
	is was are were does did do do's doesn't didn't isn't wasn't will would can could should
	why how what where when and or but so use try fix change explain mean keep make run
`);

/** Indefinite "one" preceded by these is a pronoun for something mentioned (which one, the other one). */
export const ONE_PRONOUN_BEFORE = set(
	`the which this that other another each become new old first second last better best same every any`,
);

/** Predicates of expletive "it" ("is it possible to", "it is worth"): the clause that follows is the subject. */
export const EXPLETIVE_PREDICATES = set(`
	possible impossible true false necessary unnecessary safe unsafe ok okay fine better best worse worth
	hard harder easy easier difficult normal common usual important bad good wise legal illegal likely
	unlikely required advisable recommended healthy unhealthy dangerous allowed time
`);
/** "does it take/cost/mean to ..." — a fixed expletive frame. */
export const EXPLETIVE_VERBS = set(`take takes took cost costs mean means require requires matter`);

/** Turn-initial discourse connectives that continue what came before. */
export const CONTINUATION_STARTERS = [
	'and',
	'also',
	'but',
	'so',
	'then',
	'or',
	'plus',
	'instead',
	'otherwise',
	'besides',
	'what about',
	'how about',
	'what if',
	'and what',
	'and how',
	'ok so',
	'okay so',
	'ok and',
	'ok but',
	'okay but',
	'now',
	'next',
	'same',
	'similarly',
	'additionally',
	'furthermore',
	'moreover',
	'alternatively',
	'anyway',
	'in that case',
	'if so',
	'if not',
	'on the other hand',
	'still',
	'yet',
	'though',
] as const;

/** Additive or substitutive markers anywhere in the turn (…too, …as well, …instead). */
export const CONTINUATION_ANYWHERE = ['instead', 'as well', 'again', 'as before'] as const;

/** Additives that continue only at the end of a sentence ("…on Windows too?"; not "too many"). */
export const SENTENCE_FINAL_ADDITIVES = set(`too either`);

/** References to the earlier discourse itself (your answer, you said, above). */
export const DISCOURSE_REFERENCES = [
	'above',
	'earlier',
	'previous',
	'previously',
	'before that',
	'the former',
	'the latter',
	'the same',
	'the last one',
	'the first one',
	'the second one',
	'the other one',
	'the previous one',
	'the next one',
	'you said',
	'you mentioned',
	'you suggested',
	'you wrote',
	'you showed',
	'you gave',
	'you meant',
	'you just',
	'your answer',
	'your example',
	'your code',
	'your suggestion',
	'your solution',
	'your version',
	'your fix',
	'your last',
	'my last',
	'my previous',
	'as i said',
	'like i said',
	'as mentioned',
	'mentioned',
	'aforementioned',
] as const;

/** Coding artifacts that "the …" picks out of the conversation ("the function", "the error"). */
export const ARTIFACT_NOUNS = set(`
	function functions method methods class classes variable variables file files test tests error errors
	exception stack trace code snippet example script query command output result results bug issue fix patch
	change changes diff loop line lines approach solution answer version regex config configuration endpoint
	table column field param parameter argument return value type interface component module import call
	build log logs warning message commit branch pr migration schema hook callback promise request response
`);

/**
 * Nouns that need an argument ("the symptoms" of what? "the difference" with what?). Without an
 * of/for/between phrase they leave their argument to the conversation.
 */
export const RELATIONAL_NOUNS = set(`
	type types kind kinds variety varieties version versions
	cause causes effect effects symptom symptoms sign signs risk risks danger dangers
	advantage advantages disadvantage disadvantages benefit benefits drawback drawbacks downside downsides
	pro pros con cons tradeoff tradeoffs trade-off trade-offs limitation limitations alternative alternatives
	difference differences similarity similarities relationship relation comparison
	history origin origins role impact influence purpose goal goals meaning definition
	member members part parts feature features example examples use uses usage application applications
	requirement requirements cost costs price prices rule rules step steps result results finding findings
	implication implications characteristic characteristics property properties option options
	reason reasons problem problems challenge challenges criticism criticisms source sources
	treatment treatments cure alternatives complexity performance syntax signature behavior behaviour
	output input default defaults size length duration rate speed
`);

/** Words that open an argument for a relational noun. */
export const ARGUMENT_PREPOSITIONS = set(`of for between about behind among`);

/** Ordinals and superlatives that can stand for a noun the conversation supplies ("the largest", "the first"). */
export const ELIDED_HEAD_ADJECTIVES = set(
	`first second third last latest next previous other same former latter best worst biggest largest smallest oldest youngest newest fastest slowest cheapest most least`,
);

/** After "the", nouns unique in the world or time words: no antecedent needed. */
export const UNIQUE_NOUNS = set(
	`world earth sun moon universe internet web past future present morning evening night day week weekend year summer winter spring autumn fall beginning end rest same`,
);

/** Elaboration requests: the turn asks for more about what was just said. */
export const ELABORATION_PHRASES = [
	'tell me more',
	'more detail',
	'more details',
	'in more detail',
	'in detail',
	'more depth',
	'go on',
	'go deeper',
	'keep going',
	'elaborate',
	'expand on',
	'clarify',
	'explain',
	'explain further',
	'what do you mean',
	'break it down',
	'break that down',
	'for example',
	'an example',
	'another example',
	'more examples',
	'example',
	'why not',
	'why is that',
	'how so',
	'say more',
	'more about',
] as const;

/** A turn that is only one of these words is a bare reaction to the previous turn ("why?", "really?"). */
export const BARE_REACTIONS = set(`why how when where really seriously example examples more and so then continue`);

/** Closed-class words (articles, pronouns, auxiliaries, prepositions, conjunctions, wh-words): they end a noun phrase. */
export const CLOSED_CLASS = set(`
	a an the this that these those it its they them their he him his she her i me my you your we us our
	what which who whom whose where when why how whether if than then there here
	is are was were be been being am do does did doing done have has had having
	can could will would shall should may might must let lets let's
	not no nor and or but so yet also too very just only even still again ever
	of to in on at by for with from about into onto over under after before during between among through
	as up down out off per via vs versus
	what's where's how's who's it's that's there's don't doesn't didn't isn't aren't wasn't can't won't
`);

/**
 * Light verbs, generic nouns and evaluative adjectives: with CLOSED_CLASS, what is left when they
 * are removed is the turn's own content. Deliberately general; unknown words count as content.
 */
export const LIGHT_WORDS = set(`
	any some all each every both either neither other another such same more most less least much many few
	one ones thing things something anything stuff way ways lot lots side
	tell please give show explain describe make makes made get go know think want need like use used using
	work works happen happens mean say said see look try add remove delete rename run write change update fix
	refactor call print convert move handle keep put set
	good bad better best worse worst main important common different popular famous typical new old
	big small large high low long short well really kind type sure ok okay yes thanks thank
	related unique similar available possible specific general certain whole able
`);

/** Openers whose object is the whole subject of the turn: "what is X", "tell me about X". */
export const SUBJECT_OPENERS = [
	'what is',
	'what are',
	'what was',
	'what were',
	"what's",
	'who is',
	'who was',
	'who are',
	'who were',
	'tell me about',
	'tell about',
	'tell me more about',
	'describe',
	'what is a',
	'what is an',
	'define',
] as const;

/** "a lot", "a few": quantifiers, not a new referent. */
export const INDEFINITE_QUANTIFIERS = set(`lot few little bit couple number while`);

/** Determiners that make a noun phrase definite: its referent is already known. */
export const DEFINITE_DETERMINERS = set(`the this that these those its their his her your our`);
