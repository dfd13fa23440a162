/**
 * Cue tables for the answer-path router (seed 001). In a code editor "live state" is whatever is
 * true now and not stored anywhere: diagnostics, git, the selection or open file, terminal and
 * test output. Whole-word / whole-phrase patterns on normalised text.
 */
import { cueTable, type CueTable } from '../text/turnText';

const SECRET_NOUN = String.raw`(?:secrets?|secret keys?|api[ _-]?keys?|apikeys?|passwords?|passwd|credentials?|creds|(?:access|auth|bearer|session|refresh|github|gitlab|npm|aws|slack|stripe|openai|jwt) tokens?|tokens|private keys?|ssh keys?|access keys?|signing keys?|aws[ _]secret(?:[ _]access[ _]key)?|connection strings?|\.env(?: file)?)`;
// Words after a secret noun that turn it into a topic ("password hashing") rather than a value.
const SECRET_TOPIC = String.raw`(?:hashing|hash|hashes|validation|validator|policy|policies|reset|field|fields|strength|rotation|format|manager|managers|management|handling|storage|length|requirements?|input|prompt|flow|leak detection|scanner|scanning|example|file format)`;
const DISCLOSE = String.raw`(?:show|print|reveal|display|dump|echo|cat|output|give|tell|send|paste|expose|read out|copy)`;
// An optional modifier word before the noun ("the AWS secret"), but not a question word ("tell me about API keys").
const MODIFIER = String.raw`(?:(?!about\b|how\b|what\b|why\b|when\b|where\b|which\b|if\b|whether\b|an?\b)[\w-]+\s+)?`;
const OWNED = String.raw`(?:the|our|my|your|prod|production|staging|dev|real|actual|current|full|raw)`;

/** Requests to disclose a secret value: refused before any search (seed 001: restricted data). */
export const SECRET_REQUEST: CueTable = cueTable([
	{
		name: 'disclose_secret',
		re: new RegExp(
			String.raw`\b${DISCLOSE}\s+(?:me\s+|us\s+)?(?:(?:${OWNED}|all|all the)\s+){0,3}${MODIFIER}${SECRET_NOUN}(?!\s+${SECRET_TOPIC}\b)(?!\w)`,
		),
	},
	// "what's the password" asks for a value only with an owner/determiner; "what is an API key?" is generic.
	{
		name: 'ask_secret_value',
		re: new RegExp(
			String.raw`\bwhat(?:'s| is| are| was)\s+(?:${OWNED}\s+){1,3}${MODIFIER}${SECRET_NOUN}(?!\s+${SECRET_TOPIC}\b)(?!\w)`,
		),
	},
	{
		name: 'env_contents',
		re: /\b(?:contents? of|what(?:'s| is) in|cat|print|show(?: me)?|dump|read) (?:the |our |my )?\.env\b(?!\.(?:example|sample|template|dist|defaults)\b)/,
	},
]);

/** Tasks over text the user already provided: answered from the conversation, no search. */
export const PROVIDED_CONTEXT: CueTable = cueTable([
	{
		name: 'transform_provided',
		re: /\b(?:summari[sz]e|rephrase|reword|rewrite|translate|shorten|proofread|simplify|paraphrase|condense|explain|format|tl;?dr)\b[^?]{0,40}?\b(?:above|below|following|pasted|this text|this paragraph|that (?:last )?paragraph|the (?:text|paragraph|passage|message|snippet) (?:above|below|i (?:pasted|sent))|your (?:last )?(?:answer|reply|response|message)|what you (?:just )?(?:said|wrote)|(?:the|that) last (?:paragraph|answer|message|reply|sentence))\b/,
	},
	{ name: 'inline_code', re: /```/ },
	// The data is in the turn itself: "convert this timestamp to UTC: 1700000000", "what does this regex do: ^a+$".
	{ name: 'inline_data', re: /\b(?:this|the following)\b[^:\n]{0,40}:\s*\S/ },
	// A short computation over numbers given in the turn ("what is 2+2?"): deterministic, nothing to
	// look up. The length lookahead bounds the backtracking of the operand classes.
	{
		name: 'computation',
		re: /^(?=[^\n]{1,80}$)(?:what(?:'s| is)\s+|calculate\s+|compute\s+)?[\d\s.+\-*\/^()%×÷=]*\d[\s.]*[+\-*\/^%×÷][\s.]*\d[\d\s.+\-*\/^()%×÷=]*\??$/,
	},
]);

/**
 * Questions whose truth is live editor state: diagnostics, git, selection, terminal, tests.
 * Unanchored, so optional leading words ("the", "my") are left out: they cannot change whether
 * a cue matches, only slow the scan.
 */
export const LIVE_STATE: CueTable = cueTable([
	{
		name: 'diagnostics',
		re: /\b(?:problems? (?:panel|tab|view)|diagnostics|(?:red )?squiggl\w*|(?:type|compile|compiler|lint|linter|build|syntax|tsc|eslint|typescript) (?:errors?|warnings?)|(?:errors?|warnings?) (?:in|on) (?:this|the|my|current) (?:file|editor|tab|line)|what's wrong with (?:this|my|the current) (?:file|code|line))\b/,
	},
	{ name: 'output_now', re: /\b(?:logs|log output|output (?:panel|channel|window)|debug console|dev tools console)\b/ },
	{
		name: 'build_now',
		re: /\b(?:(?:status|state|result) of (?:the |my |our |this )?(?:build|ci|pipeline|tests?|test run|deploy(?:ment)?|job|pr|pull request|checks?)|(?:is|are) (?:the |my |our |all )?(?:[\w-]+ )?(?:build|ci|pipeline|tests?|specs?|checks?) (?:still )?(?:green|passing|red|failing|done)|(?:build|tests?|ci|pipeline|compile|compilation|deploy(?:ment)?|server|app|job) (?:is |are )?(?:still )?(?:failing|broken|red|crashing|down)|(?:build|tests?|test suite|specs?|ci|pipeline|typecheck|type check|linter|lint|compilation|(?:npm |pnpm |yarn )?install|docker build) (?:has been |have been |is |are |was |were |keeps? )?(?:still )?(?:fails|failed|failing|broken|red|breaks|broke|hangs|hanging|hung|flaky|flakes|crashes|crashed|crashing|times out|timed out|timing out)|failing (?:tests?|build|job|check)|(?:test|terminal|build|console|compiler) output|(?:the|my|in the) terminal|last (?:test )?run|right now|currently (?:failing|broken|open|selected|running))\b/,
	},
	{
		name: 'git_state',
		re: /\bgit (?:status|diff|log|branch|blame|stash|show)\b|\bwhat (?:did|have) i (?:change|changed|modify|modified|touch|touched|edit|edited)\b|\bwhat(?:'s| has| have)? changed\b|\b(?:uncommitted|unstaged|staged) (?:changes|files)\b|\bmy (?:changes|diff|local changes|last commit|commits|branch)\b|\b(?:current|which|this) branch\b|\blast commit\b|\bthe diff\b/,
	},
	// An action on the live workspace (seed 001: "User asks for an action → tool/action flow").
	{
		name: 'editor_action',
		re: /^(?:(?:please|pls|now|then|just|can you|could you)\s+)*(?:run|execute|start|stop|restart|kill|commit|push|pull|stash|checkout|deploy|rebuild)\s+(?:(?:the|all|my|this|our)\s+)?(?:[\w-]+\s+){0,2}?(?:tests?|test suite|specs?|build|app|server|dev server|linter|formatter|migrations?|script|command|branch|changes|watcher|debugger|npm|pnpm|yarn|make|cargo|pytest|jest|mocha|tsc|eslint|prettier|docker)\b/,
	},
	{
		name: 'editor_state',
		re: /\bselection\b|\bselected (?:code|text|lines?|function|block)\b|\b(?:this|the current|the open|the active|my open|my current) (?:file|function|method|class|line|block|editor|tab|snippet|test)\b|\bhighlighted\b|\bunder (?:the|my) cursor\b/,
	},
]);

// Lead-ins before an imperative that do not change what is asked ("can you…", "I want to…", "let's…").
const EDIT_LEAD = String.raw`^(?:(?:ok|okay|so|and|also|now|then|please|pls|just|go|first|next|great|good|cool|right)\s*,?\s+)*(?:(?:can|could|would|will) you (?:please |also |just )?|please |pls |(?:i|we) (?:want|need|would like|'d like) (?:you )?to |(?:i|we)(?:'d| would) like (?:you )?to |let's |let us |lets |we should |help me )?`;
// Verbs that change or add code. "make" needs an object ("make it async"), not "make sure"; the
// creation verbs (write, create…) count only when the project is named (see CREATE_FROM_SCRATCH).
const EDIT_VERBS = String.raw`refactor|fix|rename|update|change|modify|rewrite|implement|add|remove|delete|extract|replace|optimi[sz]e|clean up|tidy up|simplify|convert|migrate|inline|unwrap|bump|upgrade|downgrade|revert|undo|insert|append|prepend|comment out|uncomment|reformat|restructure|reorgani[sz]e|dedupe|deduplicate|parametri[sz]e|generali[sz]e|hardcode|harden|memoi[sz]e|write|create|generate|make (?!sure\b|sense\b|a (?:list|summary|plan|note|table)\b)|write (?:(?:a|the|some|more|unit|integration|e2e|regression)\s+)*(?:tests?|specs?|docstrings?|jsdoc|comments?|types?) for|(?:cover|test) (?:it|this|that|them|the\s+\S+|\S+) with tests`;
// Verbs that are as often nouns at the start of a question ("move semantics in C++?", "build times
// are slow", "cache invalidation…", "port 5432…"): imperatives only when an object follows.
const NOUNISH_EDIT_VERBS = String.raw`move|build|merge|split|wrap|document|format|cache|port|patch|drop|test`;
const EDIT_OBJECT = String.raw`(?:it|this|that|these|those|them|the|our|my|all|every|each|its|their|an?|some|any)\b|\S*[._/(]\S*`;

/**
 * An imperative that changes code in the workspace ("fix it", "rename X to Y", "write a test for
 * parseArgs", "I want to split invoice.ts into…"): answered by the tool path, which reads the
 * file first. Matched on the turn's start (after social lead-ins).
 */
// "change of plans", "update on the release": a verb followed by "of"/"on" is a noun.
export const EDIT_REQUEST = new RegExp(
	`${EDIT_LEAD}(?:(?:${EDIT_VERBS})\\b(?! (?:of|on)\\b)|(?:${NOUNISH_EDIT_VERBS}) (?:${EDIT_OBJECT}))`,
);

/**
 * New code from scratch with nothing of the project named ("write a function that reverses a
 * string", "create a regex for emails"): not an edit of the workspace.
 */
export const CREATE_FROM_SCRATCH = new RegExp(
	`${EDIT_LEAD}(?:write|create|generate|make|implement|build|give me|show me) (?:me )?(?:an?|some) \\b`,
);

/** What ties a turn to this project rather than to programming in general ("our", "we", "in this repo"). */
export const PROJECT_REFERENCE =
	/\b(?:our|ours|we|we're|we've|we'd|us|here|in this (?:repo|repository|project|codebase|code base|app|service|workspace)|(?:my|this|the) (?:code|codebase|repo|project|app|service|branch|changes|pr|build|tests?|file|files|module|function|class|component|schema|config)|the (?:\w+ )?(?:parser|worker|queue|store|handler|controller|service|endpoint|route|model|migration|job|helper|util|loader|client|server)\b)\b/;

/** An explicit request for general knowledge ("what does X mean in general?"): not this project's. */
export const GENERAL_MARKER =
	/\b(?:in general|generally speaking|in theory|conceptually|as a concept|in the abstract)\b/;

/** Asks about a failure just shown by a live tool ("why does it fail?", "what's the error?"). */
export const DIAGNOSIS =
	/^(?:(?:ok|okay|so|and|hmm|then)\s*,?\s+)*(?:why|what|where|how come|which)\b.{0,40}\b(?:fail|fails|failing|failed|failure|break|breaks|broke|broken|error|errors|wrong|crash|crashes|crashing|red)\b/;

/** Re-says the last answer ("rephrase that in two sentences", "tl;dr of that"): the text is in the window. */
export const TRANSFORM_REPLY =
	/^(?:(?:ok|okay|so|now|then|please|pls|can you|could you)\s*,?\s+)*(?:rephrase|reword|paraphrase|restate|summari[sz]e|condense|tl;?dr(?: of)?|say) (?:that|it|this)(?: (?:again|once more|more simply|simply|briefly|shorter|differently|for me))*(?: (?:in|into|as|with|using|for) [\w\s'-]{1,40})?$/;

/** A request whose only object is a pronoun: with no earlier turns there is nothing to resolve. */
export const VAGUE_REQUEST =
	/^(?:(?:can|could|would|will) you |please |pls |just )*(?:check|fix|do|look at|look into|see|handle|change|update|run|try|explain|review|improve|test|finish|redo|undo|debug|clean up|continue|go on|keep going|repeat|verify|use|open|send|show me|read|delete|remove|move|more|next)(?: (?:it|that|this|these|those|them|one|the thing|the other one|the same|again|too|also|now|please|for me|out|up|here|there|again))*$/;

// "How do I …" / "what is a …" phrasing that asks for general knowledge, not this project's.
export const GENERIC_SHAPE =
	/^(?:how (?:do|can|would|should|could) (?:i|you|one) |how to |what(?:'s| is| are| does) (?:a |an |the difference|the syntax|the best way|the idiomatic way)|explain (?:how|what|the difference|the concept)|is there (?:a|an) (?:way|function|method|built-?in|library)|difference between |when should (?:i|you|one) use |why (?:do|does|is|are) (?:a |an )|what does \w+ mean in )/;

export const TECH_TERM =
	/\b(?:python|javascript|typescript|js|ts|node(?:\.?js)?|deno|java|kotlin|golang|go|rust|c\+\+|c#|ruby|php|swift|scala|haskell|elixir|sql|postgres(?:ql)?|mysql|sqlite|bash|shell|zsh|powershell|regex|regular expressions?|json|yaml|xml|csv|toml|html|css|react|vue|angular|svelte|docker|kubernetes|git|npm|pnpm|yarn|linux|unix|windows|macos|http|https|rest|graphql|grpc|api|async|await|promises?|closures?|recursion|algorithm|arrays?|lists?|dict(?:ionary|ionaries)?|hash ?maps?|strings?|integers?|floats?|generics?|lambdas?|decorators?|iterators?|generators?|threads?|mutex|pointers?|structs?|enums?|tuples?|sets?|loops?|exceptions?|utf-?8|unicode|base64|oauth|jwt|tls|ssl|tcp|udp|dns|websockets?)\b/;

/** References that tie a "how do I" question to something concrete here, so it is not generic. */
export const LOCAL_REFERENCE = /\b(?:our|we|us|this|that|these|those|it|here)\b/;
