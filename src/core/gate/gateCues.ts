/**
 * Cue families the learned gate reads as named features. Each is one whole-word regex on the
 * normalised text (`TurnText.text` or `.core`); a hit is a binary feature whose weight is learned
 * offline (training/fitGate.ts). Written from the rubric's definitions, not from any data set.
 */

/** Live state: what is true now in the editor, git, terminal or CI (rubric: path tool). */
export const LIVE_CUES: ReadonlyArray<readonly [string, RegExp]> = [
	[
		'live_diag',
		/\b(?:problems? (?:panel|tab|view|pane)|diagnostics?|squiggl\w*|(?:type|compile|compiler|lint|linter|build|syntax|tsc|eslint|mypy|pyright|clippy|rustc|ts) (?:errors?|warnings?|issues?)|(?:errors?|warnings?) (?:in|on|from) (?:this|the|my|current|open) (?:file|editor|tab|line|project|workspace)|(?:any|what|which|how many) (?:errors|warnings)\b(?! (?:does|do|can|could|should|would|might|will)\b)|red (?:lines?|underlines?)|underlined)\b/,
	],
	[
		'live_git',
		/\bgit (?:status|diff|log|branch|blame|stash|show|pull|fetch|push|rebase|merge|checkout|switch|cherry-pick|reset|revert|commit|add|tag|bisect)\b|\bwhat (?:did|have|has) (?:i|we) (?:change|changed|modify|modified|touch|touched|edit|edited|done)\b|\bwhat(?:'s| has| have)? changed\b|\b(?:uncommitted|unstaged|staged|local|working[- ]tree|pending) (?:changes?|files?|edits?|diff)\b|\bmy (?:changes|diff|local changes|last commit|commits|branch|edits?|working copy)\b|\b(?:current|which|this|my) branch\b|\b(?:last|latest|previous|recent|head) commits?\b|\bthe diff\b|\bsince (?:the |my )?(?:last )?commit\b|\b(?:blame|stash|cherry-pick|rebase|bisect|fetch)\b|\b(?:pull|push|fetch) (?:from |to )?(?:origin|upstream|remote|the latest|latest)\b|\b(?:ahead|behind) of (?:origin|main|master|upstream)\b|\bwho (?:last )?(?:changed|touched|wrote|edited) (?:this|that|line)\b/,
	],
	[
		'live_selection',
		/\b(?:selection|selected|highlighted|highlight(?:ed)? (?:block|code|part|lines?|bit)|(?:this|the) (?:block|bit|part|snippet) (?:i|i've|i have) (?:selected|highlighted|marked)|under (?:the|my) cursor|(?:the|this|my) (?:current|open|active) (?:file|tab|editor|function|method|class)|(?:file|tab) i have open|(?:the|this) (?:open|active) (?:file|tab|editor)|where my cursor is|line i'm on)\b/,
	],
	[
		'live_run',
		/^(?:(?:ok|okay|so|now|then|please|pls|just|go|and|yes|yeah|yep|sure|can you|could you|would you|let's|lets|mind)\s*,?\s+)*(?:re-?run|run|execute|kick off|start|restart|launch|trigger|rebuild|build|compile|retry|re-?try|re-?trigger|spin up|fire off|try running)\b(?! (?:away|into|out of|through)\b)/,
	],
	[
		'live_tests',
		/\b(?:(?:re-?)?run (?:the |all |my |those |these |that |this )?(?:[\w./:-]+ )?(?:tests?|specs?|suite|e2e|benchmarks?|linter|lint|build|job|pipeline|migrations?|script|command|checks?)|test (?:run|output|results?|failures?)|(?:tests?|specs?|build|suite|pipeline|ci|job|checks?) (?:pass(?:ing|ed)?|fail(?:ing|ed|s)?|green|red|broken|flaky|still)|flaky (?:test|spec|job)|failing (?:tests?|specs?|job|build|checks?))\b/,
	],
	[
		'live_ci',
		/\b(?:ci|pipeline|workflow|github actions?|gitlab ci|jenkins|circleci|buildkite|actions run|pr checks?|checks?) (?:status|run|runs|job|jobs|result|results|pass(?:ed|ing)?|fail(?:ed|ing|s)?|green|red|broken|done|finished|stuck|log|logs)\b|\b(?:did|has|is|are) (?:the )?(?:ci|pipeline|build|workflow|job|checks?|deploy(?:ment)?) (?:pass|passed|fail|failed|finish|finished|done|green|red|still|go through|succeed|succeeded|running|broken)\b/,
	],
	[
		'live_terminal',
		/\b(?:terminal|console output|last command|exit code|exit status|stdout|stderr|the output|what's running|running process(?:es)?|on port \d+|port \d+|(?:cpu|memory|ram|disk) usage|using (?:the )?(?:cpu|memory|port)|process(?:es)? (?:list|running)|top output|htop|ps aux|lsof)\b/,
	],
	[
		'live_command',
		/\b(?:terraform (?:plan|apply|init|validate|fmt|state)|tf (?:plan|apply)|kubectl \w+|helm (?:upgrade|install|list|status|rollback)|docker(?:-| )compose \w+|docker (?:ps|logs|build|run)|npm (?:run|test|ci|install|i)|pnpm (?:run|test|install|i|add|build|dev|exec|dlx|lint)|yarn (?:run|test|install|add|build|dev|lint)|cargo (?:build|test|run|check|clippy|bench)|go (?:test|build|run|vet)|pytest|mvn \w+|gradle(?:w)? \w+|dotnet (?:build|test|run)|make \w+|tox|nox)\b/,
	],
	[
		'live_undo',
		/^(?:(?:ok|okay|so|now|then|please|pls|just|yes|yeah|yep|sure|can you|could you|quickly)\s*,?\s+)*(?:undo|revert|roll ?back|discard|reset|restore|unstage|stash|commit|push|pull|fetch|amend|squash|checkout|switch to|merge|rebase|cherry-pick|tag|stage)\b/,
	],
];

/** Any live-state cue (one scan, for reading an earlier turn). */
export const ANY_LIVE = new RegExp(LIVE_CUES.map(([, re]) => `(?:${re.source})`).join('|'));

/** Meta turns about the last reply: explain, defend, shorten, compare — answered from the window. */
export const META_REPLY =
	/^(?:(?:ok|okay|so|hmm+|um+|uh+|wait|but|and|then|well|really)\s*,?\s+)*(?:why(?: though| not| so| exactly| is that| would (?:it|that|you))?|how so|you sure|are you sure|really|huh|what|eh|sure about that|is that (?:right|true|correct|so)|elaborate|expand(?: on that| on it)?|go (?:more )?deep(?:er)?(?: (?:on|about) (?:that|it|this))?|more deep|more detail(?:s)?|in more detail|more|tell me more|explain (?:that|it|this) (?:again|more|better|differently|simply)|explain again|say (?:that|it) again|what do you mean|meaning|shorter|longer|simpler|simplify(?: (?:that|it))?|eli5|tl;?dr|in plain english|pros and cons|pros\/cons|trade-?offs?|which (?:one|approach|option|way|of (?:these|those|them)) (?:would|do|should) (?:you|i) (?:pick|choose|recommend|go with|use|prefer)|which (?:would|do) you (?:pick|choose|recommend|prefer)|what would you (?:do|pick|choose|recommend)|your (?:pick|recommendation|opinion)|another example|one more example|an example|example\??|any alternatives|alternatives|other options|what else|and then|then what|and\??|so\??|ok and)\s*[?!.]*$/;

/** General knowledge shapes (rubric: direct when unrelated to the project). */
export const GENERAL_SHAPE =
	/^(?:(?:quick question|random question|unrelated|off[- ]topic|side question|btw|by the way|out of curiosity|curious|hi|hey|hello|i want to ask|question)\s*[,:-]?\s*)*(?:what(?:'s| is| are| does| do) (?:exactly |really |actually )?(?:a|an|the difference between|the difference|different between|difference of|meant by|exponential|idempotency|idempotent|eventual consistency)\b|what does [\w.#+-]+ (?:mean|stand for|do)\b|(?:the )?differen(?:ce|t) (?:between|of)|explain (?:what|how) (?:a|an)\b|what(?:'s| is) the capital|who (?:invented|wrote|created|founded)|when was|how (?:many|far|old|big|long) (?:is|are|was|were|does|do) (?:a|an|the)\b|is it true that|in general|generally speaking)/;
/** An explicit ask for general knowledge, not this project's. */
export const GENERAL_MARKER =
	/\b(?:in general|generally speaking|in theory|conceptually|not (?:for|about|in) (?:my|our) (?:code|project|repo)|general question|just curious|out of curiosity)\b/;
export const OFF_TOPIC =
	/\b(?:capital of|weather|recipe|football|soccer|movie|song|book recommendation|birthday|dinner|lunch|coffee|weekend|vacation|holiday plans)\b/;

/** A pasted failure: stack frames, test-runner output, panics, compiler errors. */
export const TRACE_LINE =
	/(?:^|\n)\s*(?:traceback \(most recent call last\)|file "[^"]+", line \d+|at [\w.$<>]+ ?\([^)]*:\d+(?::\d+)?\)|at [\w./\\-]+:\d+:\d+|goroutine \d+ \[|panic:|thread '[^']*' panicked|stack backtrace:|exception in thread|caused by:|\w+(?:error|exception): |error\[e\d+\]|error ts\d+|fail(?:ed)?\s+[\w./-]+|●\s|✕|×\s|--- fail|assertionerror|expected .{1,40} (?:but|got|to (?:be|equal))|\s+\^+\s*$)/i;
export const PROJECT_FRAME =
	/(?:^|[\s"'(])(?:\.\/)?(?:src|app|apps|lib|libs|internal|pkg|cmd|server|client|api|services?|packages|tests?|spec|modules|core|web|backend|frontend|main|project|crates)\/[\w./-]+(?::\d+|", line \d+|\.\w{1,4}:\d+)/;
export const THIRD_PARTY_FRAME =
	/(?:site-packages|dist-packages|node_modules|\/usr\/lib|\.cargo\/registry|go\/pkg\/mod|\/jdk|java\.base|internal\/process|<frozen)/;

/** Doubt carried by a statement ("pretty sure we…"): the rubric makes it a question that retrieves. */
// "i swear we registered it", "thought we pinned it somewhere", "i'm fairly sure we tried that":
// a belief about the project held with doubt is a question, and retrieves (rubric).
export const DOUBT =
	/\b(?:(?:pretty|fairly|quite|almost|reasonably|very) sure|i (?:could |would )?swear|thought (?:we|it|there|you|that)|i(?:'m| am) thinking (?:we|that|it|there)|i have a (?:feeling|hunch)|i(?:'d| would) have thought|feels familiar|i think|i thought|i believe|i had the impression|i have the impression|i was under the impression|if i recall|iirc|if i remember(?: correctly)?|not sure (?:if|whether)|i'm not sure|wasn't (?:it|that|there)|didn't we|weren't we|haven't we|aren't we|don't we|isn't it|i assume|i guess|right\?$|correct\?$|or (?:was|is|did) (?:it|that|we)|no\?$)\b/;

/** Statement openers: the user tells something. */
export const STATEMENT_LEAD =
	/^(?:(?:ok|okay|so|btw|by the way|also|oh|fyi|heads up|quick update|update|news|just so you know|for the record|for context|context|note|fun fact)\s*[,:-]?\s*)*(?:we(?:'re| are| have| had| now| just| decided| moved| switched| use| will| won't| don't| never| always| finally| migrated| dropped| replaced| went| ended)|our (?:\w+ )?(?:team|prod|production|staging|api|service|app|db|database|repo|release|deploy|cluster|ci)\b|the (?:\w+ )?(?:team|cluster|db|database|service|api|release|deploy|freeze)\b[^?]{0,60}\b(?:is|are|will be|was|were|has|have|moved|runs?)\b|i(?:'m| am| just| have| got| moved| started| joined| left| switched| finally| will be| won't be|'ll be|'ve been| prefer| like| hate| use| usually| always| never| work| live| studied| speak)|my (?:\w+ )?(?:name|team|manager|lead|boss|role|title|sister|brother|wife|husband|partner|kid|son|daughter|dog|cat|timezone|laptop|machine|setup|os|editor)\b|(?:heads up|fyi|for the record|note (?:that|to self)|just so you know|update)\b)/;
export const NOTE_DIRECTIVE =
	/\b(?:note (?:that|down|my|this)|(?:context|something|a rule|a fact) to keep (?:for later|in mind)|keep (?:this|that) for later|for later reference|write (?:that|this|it) down|write down|jot (?:that|this|it) down|jot down|put (?:that|this|it) (?:in|on) (?:your )?(?:notes|memory|record)|remember (?:that|this|my)|keep in mind|make a note|save (?:this|that)|record (?:that|this)|log (?:this|that) decision|for future reference)\b/;
export const DECISION_WORDS =
	/\b(?:we (?:decided|agreed|settled|chose|picked|went with|are going with|'re going with|will go with|'ll go with)|decision(?: is| was)?:|let's go with|going with|we'll use|we will use|final answer)\b/;

/** Standing instructions about the assistant's behaviour. */
export const INSTRUCTION =
	/\b(?:from now(?: on)?|from today|going forward|in (?:the )?future|by default|default to|from here on|for all future|every time (?:you|i)|whenever you|always (?:use|write|answer|reply|respond|include|add|format|give|show|prefer|put)|never (?:use|write|suggest|add|give|show|include|answer|reply|recommend)|don't ever|stop (?:using|suggesting|adding|giving|writing|doing)|please (?:always|never)|(?:i want|i'd like) you to (?:always|never)|keep (?:your )?(?:answers|replies|responses) (?:short|brief|concise)|no more \w+ in (?:your )?(?:answers|replies|code))\b/;

/** Recall of earlier chats and stored decisions. */
export const RECALL =
	/\b(?:do you remember|you remember|remind me|what did (?:we|i|you) (?:decide|settle|agree|say|conclude|pick|choose|go with|land on|figure out|find)|what (?:was|were) (?:decided|agreed|the decision|the conclusion|our decision)|did we (?:ever )?(?:decide|agree|settle|discuss|talk about)|last time|the other day|last (?:week|month|sprint|session|chat|conversation)|earlier (?:today|chat|conversation|session)|(?:in|from) (?:a|an|our|the) (?:previous|earlier|last|past) (?:chat|conversation|session|discussion)|we (?:discussed|talked about|went over|covered)|you (?:told|said|suggested|recommended) (?:me )?(?:earlier|before|last)|in your notes|your notes|(?:what|anything) (?:did i|have i) (?:miss|missed)|while i was (?:away|out|off|gone)|before (?:my|the) (?:holiday|vacation|leave|break)|the (?:outage|incident|postmortem|post-mortem) (?:we had|from|in|last)|(?:you|we) (?:noted|stored|saved|recorded)|have we (?:ever|already)|misremember\w*|at some point|(?:i )?vaguely recall|i recall|we once|(?:someone|somebody|who) decided (?:this|that|it)|decided (?:this|that) before|(?:was|is) (?:this|that) (?:decided|agreed) (?:before|already|somewhere)|(?:before|previously|already),? (?:didn't|did|haven't|have) we|what was the (?:fix|reason|workaround|root cause|outcome)|(?:we|i) (?:had|hit|saw) (?:this|that|the same)[\w ]{0,20} before)\b/;

/** Corrections of stored beliefs or of the assistant's last claim. */
export const CORRECTION =
	/^(?:(?:no|nope|nah|wrong|incorrect|not quite|that's wrong|that's not right|that is wrong|that's incorrect|actually)\s*[,.!:;-]*\s+)+(?!(?:can|could|would|will|do|does|is|are|how|what|why|where|which|please)\b)|\b(?:that's (?:wrong|not (?:right|true|correct|it))|that is (?:wrong|not (?:right|true|correct))|you(?:'re| are) wrong|not (?:\w+ )?anymore|no longer|we(?:'re| are) (?:on|using) [\w.-]+ now|(?:it|that)'s (?:actually|now) [\w.-]+|(?:has|have) (?:been )?changed to|was never|is never|isn't \w+, it's|not [\w.-]+,? (?:it's|it is|but|we use)|(?:please )?update (?:it|that|my \w+)|correction:|remember\?$)/;

/** A reference to the user's stored profile (facts, preferences). */
export const PROFILE_REF =
	/\b(?:where do i (?:work|live)|what (?:do|should|can|must) i (?:not )?(?:eat|avoid|like|prefer)|who am i|what team am i|which team am i|do you know (?:my|where i|what i|who i)|my (?:usual|preferred|favourite|favorite|standard|normal|regular|go-to|own) \w+|(?:the|in|my) (?:way|format|style|template|layout) i (?:like|prefer|usually|normally|always|use|tend to)|how i (?:like|prefer|usually)|my (?:format|template|style|conventions?|preferences?|setup|team(?:'s)?|manager|timezone|role|name|stack)\b|what(?:'s| is| are) my\b|(?:do you|what do you) know about me|about me\b|(?:i|i've) (?:told|mentioned to) you (?:that|about)|as i (?:like|prefer))/;

/** An offer or a choice in the assistant's last reply that a bare answer can accept. */
export const OFFER =
	/\b(?:want me to|should i|shall i|would you like(?: me)?|do you want(?: me)?|i can (?:also )?(?:do|add|write|make|run|update|fix)|let me know if|which (?:one|option|approach) (?:do|would) you|option (?:a|b|1|2|one|two)|either\b|or would you)\b/;
export const BARE_ANSWER =
	/^(?:(?:yes|yeah|yep|yup|sure|ok|okay|no|nope|nah|please|pls|definitely|absolutely|go ahead|do it|do that|please do|sounds good|both|neither|the (?:first|second|third|last|other|former|latter)(?: one)?|(?:option )?(?:a|b|c|1|2|3|one|two|three)|#?\d)(?:\s*,?\s*(?:please|pls|thanks|do it|go ahead|that one|the first|the second))*)\s*[.!?]*$/;

/** Opening pronouns, deictics and connectives that lean on the conversation. */
export const LEANING_START =
	/^(?:(?:ok|okay|so|hmm|and|but|also|then|now|well)\s*,?\s+)*(?:it|its|it's|that|that's|this|those|these|they|them|he|she|the other(?: one)?|same|also|and|but|or|plus|instead|what about|how about|and for|in (?:rust|go|python|java|typescript|ts|js|c#|kotlin|swift|ruby|php|scala|sql)\b|for (?:the|that) (?:other|second|first)|again|still|even|only|then)\b/;
export const ELLIPSIS_TAIL = /\b(?:too|as well|instead|either|again|then)\s*[?!.]*$/;

export const IMPERATIVE_START =
	/^(?:(?:ok|okay|so|now|then|please|pls|just|and|also|next|can you|could you|would you|will you|i need you to|i want you to|help me|let's|lets)\s*,?\s+)*(?:add|fix|rename|refactor|change|update|modify|rewrite|implement|remove|delete|extract|replace|move|split|merge|convert|migrate|write|create|generate|make|bump|upgrade|optimi[sz]e|clean up|document|explain|show|list|find|look at|check|review|debug|trace|profile|tell me|give me|walk me through|help|suggest|draft|port|wire|hook up|set up|configure|inline|wrap|test|cover|improve|speed up|simplify|translate|summari[sz]e|compare)\b/;
export const WH_START =
	/^(?:(?:ok|okay|so|hey|hi|and|but|also|fine|right|alright|great|cool|got it|quick question|question)\s*[,:.]?\s+)*(what|why|how|where|when|which|who|whose)\b/;
export const AUX_START =
	/^(?:(?:ok|okay|so|hey|hi|and|but|also)\s*,?\s+)*(?:is|are|was|were|do|does|did|can|could|would|should|will|has|have|had|any|anything|is there|are there)\b/;

export const PATHLIKE =
	/(?:^|[\s`'"(])(?:[\w.-]+\/)+[\w.-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|kts|cs|rb|php|swift|scala|sql|tf|tfvars|ya?ml|json|toml|ini|cfg|conf|md|rst|sh|gradle|xml|csproj|sln|vue|svelte|ex|exs|c|cc|cpp|h|hpp|lock|env|properties|dockerfile|proto|graphql)\b/;
export const IDENTIFIER =
	/\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b|\b[a-z]+_[a-z_]+\b|\b\w+\(\)|\b[A-Za-z_]\w*(?:\.|::)[A-Za-z_]\w*\(|`[^`\n]{2,60}`/;
export const WE_OUR = /\b(?:we|we're|we've|we'd|our|ours|us)\b/;
export const PROJECT_WORDS =
	/\b(?:repo|repository|codebase|code base|project|service|module|endpoint|handler|controller|migration|schema|config|component|pipeline|worker|job|queue|our|the app|the api|the backend|the frontend)\b/;
export const SECRET_TOPIC =
	/\b(?:secrets?|credentials?|creds|api[ _-]?keys?|tokens?|passwords?|private keys?|\.env|vault|kms|secret manager|keychain|ssm|key vault)\b/;
export const PROD_TOPIC = /\b(?:prod|production|live|customer data)\b/;
export const DESTRUCTIVE_VERB =
	/\b(?:drop|truncate|wipe|purge|flush|delete|destroy|force[- ]push|rm -rf|terminate|nuke)\b/;
export const FRUSTRATION =
	/!{2,}|\b(?:wtf|ffs|seriously|still (?:not|broken|failing|doesn't|does not)|again\?|come on|ugh+|argh+|useless|doesn't work|does not work|not working|keeps? (?:failing|breaking|crashing))\b/;
export const HOWTO_DOCS =
	/^(?:how (?:do|can|should) (?:i|we)|what's the (?:best|right|recommended) way to|is there a way to)\b/;

/** A reference to the assistant's own last reply (its text is in the window). */
export const LAST_REPLY =
	/\b(?:your (?:last |previous )?(?:answer|reply|response|explanation|snippet|code|example|suggestion|version|query)|(?:you|u) (?:just )?(?:wrote|said|suggested|mentioned|showed|gave|proposed)|the (?:snippet|code|query|version|example|fix) you|what you (?:wrote|said|suggested)|that answer|this answer)\b/;
/** A deictic to something named before ("that line", "the same file", "the other one"). */
export const DEICTIC_NOUN =
	/\b(?:that|those|these|the same|the other|the previous|the last) (?:one|ones|line|lines|file|files|function|method|class|test|tests|query|error|bug|change|commit|branch|option|approach|table|column|thing|part|step|snippet|block|config|endpoint|job)\b/;
/** "…then." / "then …" as a discourse link to the last turn. */
export const THEN_LINK = /(?:^then\b|\bthen\s*[.?!]*$|\bthen[.,]\s)/;
/** Starts with thanks and asks for nothing (non-native or chatty acknowledgements). */
export const THANKS_START =
	/^(?:(?:thanks|thank you|thx|ty|ta|cheers|great|perfect|awesome|nice|cool|ok|okay|k|kk|much appreciated)\b[^?]{0,90}$|(?:k|kk|ok) (?:thx|thanks|ty)\b)/;
/** An edit verb after a polite lead anywhere in the turn ("…. Please update its expected list"). */
export const EDIT_ANYWHERE =
	/\b(?:please|pls|can you|could you|would you|now|then|just)\s+(?:update|fix|change|add|remove|rename|refactor|rewrite|replace|move|delete|implement|adjust|tweak|put back|restore|reformat|convert)\b/;
/** A path in the turn with a code extension inside a project-looking folder. */
export const CODE_PATH =
	/\b(?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|cs|rb|php|swift|scala|sql|tf|vue|svelte|ex|exs|c|cc|cpp|h|hpp)\b/;

/** A meta request anywhere in the turn ("Go more deep about prefetch please", "simplify that a bit"). */
export const META_ANY =
	/\b(?:go (?:more )?deep(?:er)?|more deep|elaborate|expand on (?:that|it|this|the part)|simplify (?:that|it|this)|simpler (?:terms|version|words)|in simpler terms|an analogy|(?:shorter|briefer) please|too long|too verbose|more detail(?:ed)?|hand-wavy|less (?:verbose|detail)|explain (?:that|it|this) (?:more|again|simpler|differently|better)|what would you (?:do|pick|choose|recommend)|which would you (?:pick|choose|recommend)|pros and cons|trade-?offs)\b/;
/** No anaphoric word at all: the turn carries its own referents. */
export const ANAPHORA =
	/\b(?:it|its|it's|that|this|those|these|them|they|there|one|ones|same|other|above|earlier|previous|again|instead|too|also)\b/;

/** A short opening reaction sentence ("Great.", "That's very helpful.", "Alright, fair enough.") before the real request. */
export const REACTION_PREFIX =
	/^(?:[^.!?\n]{1,30}[.!]\s+|(?:ok|okay|great|thanks|cool|right|alright|understood|interesting|fine|sure|hmm|ah|oh)\s*,\s+)/;
const EARLY_WORDS = 5;
const ANAPHORIC_WORD =
	/^(?:it|its|it's|that|this|those|these|them|they|there|same|other|again|instead|then|also|too|either|one)$/;
/** An anaphoric word among the first few words of the request (after an opening reaction). */
export function earlyAnaphora(words: readonly string[]): boolean {
	for (let i = 0; i < Math.min(EARLY_WORDS, words.length); i++) if (ANAPHORIC_WORD.test(words[i])) return true;
	return false;
}
/** Something named in the turn: a file, an identifier, a backticked term, a capitalised or ALL_CAPS name inside the sentence. */
export const NAMED_ENTITY =
	/(?:[\w.-]+\/[\w./-]+|\b[\w-]+\.[a-z]{1,5}\b|`[^`]+`|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[A-Z][A-Z0-9_]{2,}\b|\b\w+_\w+\b|(?<=\w[ ,] ?)[A-Z][a-z]{2,}\b)/;

/** "this function", "this file": with nothing earlier, the editor's (rubric: tool). */
export const THIS_CODE =
	/\b(?:this|the current) (?:function|method|class|file|component|module|test|hook|query|snippet|block|line|lines)\b/;

/** A definite object that is not a general phrase ("the embeddings", "the retry queue"): a hint of something in the project. */
export const DEFINITE_OBJECT =
	/\bthe (?!(?:difference|best|same|way|following|other|first|last|next|end|idea|point|meaning|reason|purpose|concept|syntax|rest|most|whole|right|wrong|only|main|new|old|latest|current|capital|world|internet|weather|time)\b)[a-z][a-z_-]{2,}\b/;

/** A redo with nothing after it: "rerun", "retry the job", "again please" repeat the last action (ellipsis). */
export const REDO_BARE =
	/^(?:(?:ok|okay|now|then|please|pls|just|and|can you|could you)\s*,?\s+)*(?:re-?run|re-?try|redo|re-?do|re-?build|re-?deploy|re-?start|try again|again|one more time)(?:\s+(?:it|that|them|the (?:job|build|tests?|specs?|step|command|pipeline|workflow|check)))?(?:\s+(?:please|pls|now|again))*\s*[.!?]*$/;
/** "that change", "those two files", "these numbers" — a demonstrative determiner, anywhere in the turn. */
export const DEMONSTRATIVE_NP =
	/\b(?:that|those|these)\s+(?!(?:is|was|are|were|will|would|could|should|can|did|does|do|has|have|had|it|i|we|you|they|he|she|the|a|an|my|our|your|way|much|many|one|ones|far|long)\b)[a-z_][\w-]{2,}/;
