/**
 * Cue tables for intent rules: facts about the user, questions about the user, references to the
 * code base, questions about the assistant itself. Whole-word patterns on normalised text, except
 * the identifier cues, which need the original case (camelCase, PascalCase).
 */
import { cueTable, type CueTable } from '../text/turnText';

// Nouns that make "my X" about the user rather than about their code ("my name" vs "my build").
const PERSONAL_NOUNS =
	'name|job|role|title|team|employer|company|boss|manager|colleague|colleagues|coworkers?|diet|allergy|allergies|birthday|age|pronouns|timezone|time zone|location|city|country|hometown|family|wife|husband|partner|kids?|children|dog|cat|hobby|hobbies|favou?rite \\w+|preferences?|preferred \\w+|style|native language|language|editor|ide|os|operating system|keyboard|setup|stack|experience|background|degree|level|email|github|handle|username|schedule|calendar|goals?';

const PERSONAL_VERBS =
	'work|worked|live|lived|eat|like|love|hate|prefer|use|study|studied|speak|own|drive|left|joined|moved|started|teach|code|program|develop';

/**
 * A statement of a durable fact about the user (written to the profile). Cues start a clause, so
 * "I'm Priya, I work at Northwind" is found in its second clause.
 */
export const PERSONAL_FACT: CueTable = cueTable([
	{
		name: 'my_noun_is',
		re: new RegExp(String.raw`\bmy (?:${PERSONAL_NOUNS}) (?:is|are|was|were|has|have|includes?)\b`),
	},
	{
		name: 'i_am',
		re: /(?:^|[,;.!]\s*|\band )(?:i(?:'m| am)|im) (?:a|an|the|from|based|allergic|vegetarian|vegan|left-handed|colou?r ?blind|new to|fluent|retired|married|single|\d+)\b/,
	},
	{
		name: 'i_verb',
		re: new RegExp(
			String.raw`(?:^|[,;.!]\s*|\band )i (?:(?:also|now|still|usually|mostly|really|only|mainly|currently|recently|just) )?(?:${PERSONAL_VERBS}|don't eat|do not eat|can't eat|cannot eat|don't like|don't use|have (?:a|an|two|three)|got (?:a|an)|go by)\b`,
		),
	},
	{
		name: 'i_have_been',
		re: /(?:^|[,;.!]\s*|\band )i(?:'ve| have) been (?:a|an|working|living|using|coding|programming|writing|learning|studying|teaching)\b/,
	},
]);

/** A question whose answer is a stored fact about the user. */
export const PROFILE_QUESTION: CueTable = cueTable([
	{
		name: 'wh_do_i',
		re: new RegExp(
			String.raw`\b(?:where|what|which|who|when|how (?:old|long))\b[^?.!]{0,30}?\b(?:do|did|am|was|have) i (?:not )?(?:${PERSONAL_VERBS}|eat|avoid|go by)\b`,
		),
	},
	// "should I" asks for advice ("what should I use for X?") except about the user's own constraints.
	{
		name: 'wh_should_i_not',
		re: /\b(?:what|which)\b[^?.!]{0,30}?\b(?:should|can't|cannot|shouldn't|must) i (?:not )?(?:eat|drink|avoid)\b/,
	},
	{
		name: 'what_is_my',
		re: new RegExp(
			String.raw`\b(?:what(?:'s| is| are| was| were)|who(?:'s| is)|where(?:'s| is)|when(?:'s| is)|which is) my (?:${PERSONAL_NOUNS})\b`,
		),
	},
	{ name: 'do_i', re: new RegExp(String.raw`^(?:do|did|am|have) i (?:still )?(?:${PERSONAL_VERBS}|a|an)\b`) },
	{ name: 'who_am_i', re: /\bwho am i\b|\bwhat do you know about me\b|\babout me\b/ },
]);

/**
 * A personal reference inside another kind of turn ("answer in my preferred style", "remember
 * about me") that makes the profile worth a lookup (seed 000's personal-reference overlay).
 */
export const PERSONAL_REFERENCE = new RegExp(
	String.raw`\bmy (?:${PERSONAL_NOUNS})\b|\babout me\b|\bmy own\b|\b(?:i|i'm) (?:usually|normally|typically|always) (?:use|prefer|like|work)\b`,
);

/**
 * The turn refers to earlier discussion or decisions ("why did we pick zod?", "as you suggested",
 * "the reason for the cap"): research memory (past Q&A, decisions, corrections) holds the answer.
 */
export const PAST_REFERENCE =
	/\b(?:why (?:did|do|have|had|would|were) we|why did (?:i|you) (?:pick|choose|use|go with|decide|add|remove|switch|change)|why (?:was|were) (?:it|this|that|they|the [\w-]+(?: [\w-]+)?) (?:chosen|picked|decided|added|introduced|designed|built|kept|removed|changed)|the (?:reason|rationale|reasoning|motivation) (?:for|behind|why)|(?:design|architecture|architectural|technical) (?:decisions?|choices?)|we (?:decided|agreed|discussed|chose|settled on)|(?:last time|earlier|previously|the other day|last week|yesterday) (?:we|you) (?:said|discussed|decided|agreed|talked|suggested)|as (?:we|you) (?:said|discussed|agreed|decided|suggested)|you (?:said|told me|mentioned|suggested|recommended) (?:earlier|before|that)|the decision (?:log|record|to|about))\b/;

/** The turn refers to this code base (a file, an identifier, "our X", "in this repo"). */
export const WORKSPACE_CUES: CueTable = cueTable([
	{
		name: 'this_repo',
		re: /\b(?:this|our|the) (?:repo|repository|codebase|code base|workspace|monorepo)\b|\bin (?:this|our|the) (?:project|package|module|app|service|extension)\b/,
	},
	{
		name: 'our_code',
		re: /\bour (?:code|tests?|api|apis|schema|schemas|config|configuration|build|pipeline|ci|cache|database|db|service|services|app|backend|frontend|server|client|module|modules|functions?|class(?:es)?|implementation|migrations?|models?|routes?|endpoints?|handlers?|components?|library|sdk|cli|docs|readme|types?|store|parser|indexer|logger)\b/,
	},
	{
		name: 'where_defined',
		re: /\bwhere (?:is|are|do we|does|did we)\b[^?]{0,60}\b(?:defined|declared|implemented|configured|set|used|called|handled|initiali[sz]ed|created|registered|stored|computed|tested)\b/,
	},
	{
		name: 'which_file',
		re: /\bwhich (?:file|files|module|modules|function|functions|class|classes|package|component|test|tests)\b|\bfind (?:all )?(?:the )?(?:usages|references|callers|definition|implementation)\b|\bwho calls\b|\bcall sites?\b|\bdefined in\b/,
	},
	{
		name: 'the_x_function',
		re: /\bthe [\w.-]+ (?:function|class|method|module|file|component|endpoint|route|table|schema|hook|service|handler|helper|util|script|config|interface|type|enum|struct|trait|package|directory|folder|command|migration|worker|test suite)\b/,
	},
	// A file name: a token ending in a known extension ("decide.ts", "src/app.py"). It starts only
	// at a token start (the lookbehind), which keeps the scan linear. Library names spelled "X.js"
	// (node.js, next.js…) are technologies, not files here.
	{
		name: 'file_path',
		re: /(?<![\w./-])\w[\w./-]*(?<!\b(?:node|next|nuxt|vue|three|chart|express|socket|ember|backbone|d3|p5|moment|deno|react|angular|alpine|solid))\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|cs|cpp|cc|hpp|swift|json|ya?ml|toml|md|sql|sh|css|scss|html|vue|svelte|lock)\b/,
	},
	{ name: 'call_syntax', re: /\b[a-z_$][\w$]*\(\)/ },
	{ name: 'snake_case', re: /\b[a-z][a-z0-9]*_[a-z0-9_]+\b/ },
]);

// camelCase or PascalCase with an inner capital: the shape of a code identifier.
const IDENTIFIER = /\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b/g;
// Product and language names written with inner capitals; they name a technology, not a symbol here.
const KNOWN_NAMES: ReadonlySet<string> = new Set(
	`javascript typescript coffeescript actionscript github gitlab bitbucket postgresql mysql sqlite mongodb dynamodb
	graphql powershell nodejs macos ios iphone ipad ipados youtube linkedin chatgpt openai vscode devops fastapi pytorch
	tensorflow numpy scipy jquery elasticsearch cloudflare webassembly webgl webgpu websocket websockets onnx pgvector
	pglite codeql nextjs nestjs redux mobx tailwindcss rxjs jupyterlab xcode intellij webstorm pycharm phpstorm sourcetree
	openapi oauth minio mariadb couchdb clickhouse playwright pnpm qwerty
	typeerror referenceerror syntaxerror rangeerror evalerror urierror aggregateerror valueerror keyerror indexerror
	attributeerror importerror modulenotfounderror filenotfounderror runtimeerror notimplementederror zerodivisionerror
	nullpointerexception illegalargumentexception classcastexception stackoverflowerror outofmemoryerror
	flatmap foreach tostring valueof hasownproperty addeventlistener removeeventlistener settimeout setinterval
	localstorage sessionstorage innerhtml textcontent getelementbyid queryselector queryselectorall usestate useeffect
	usememo usecallback useref usecontext usereducer readfile writefile readfilesync writefilesync json.parse
	javadoc jsdoc tsconfig eslint prettier`.split(/\s+/),
);

/** The first camelCase / PascalCase identifier in the original text that is not a product name. */
export function identifierCue(raw: string): { name: string; match: string } | null {
	IDENTIFIER.lastIndex = 0;
	for (let m = IDENTIFIER.exec(raw); m; m = IDENTIFIER.exec(raw)) {
		if (!KNOWN_NAMES.has(m[0].toLowerCase()))
			return { name: /^[A-Z]/.test(m[0]) ? 'pascal_case' : 'camel_case', match: m[0] };
	}
	return null;
}

/** Questions about the assistant itself (how it decided, what it is). */
export const META_CUES: CueTable = cueTable([
	{
		name: 'why_did_you',
		re: /\bwhy (?:did|do|didn't|don't|would) you (?:look|search|retrieve|fetch|use|pick|choose|say|do|answer|suggest|recommend|cite|think|ignore|skip|need)\b/,
	},
	{
		name: 'how_do_you',
		re: /\bhow (?:do|did) you (?:decide|work|choose|remember|retrieve|pick|search|rank|store|learn)\b/,
	},
	{
		name: 'what_are_you',
		re: /\b(?:what (?:model|llm)(?: are you| do you use| is this| powers you)?|are you (?:an? )?(?:ai|bot|robot|llm|gpt|human|model|real person)|who (?:are|made|built|created) you|what are you|what can you do|what are your (?:limits|capabilities|rules))\b/,
	},
	{
		name: 'what_did_you_use',
		re: /\b(?:what did you (?:look up|retrieve|search for|search|use|read)|where did you get (?:that|this)|what (?:sources|context|memories) did you use|show (?:me )?(?:the|your) (?:trace|decision|reasoning|sources))\b/,
	},
	{
		name: 'how_does_this_work',
		re: /\bhow does (?:this|the) (?:assistant|extension|gate|memory|retrieval|plugin) (?:work|decide)\b/,
	},
]);
