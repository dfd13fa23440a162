/**
 * The hard refusal rules, checked before anything is learned or searched (rubric: refuse). Two
 * families: disclosing or committing a secret, and a destructive operation against production.
 * These are rules, not weights: a learned score could trade a refusal away for accuracy
 * elsewhere. Both families have an explicit "ordinary question" exemption — asking *where* or
 * *how* credentials are loaded, or how to do a risky operation safely, is a normal workspace
 * question, and a false refusal is an error too.
 */
import { SECRET_REQUEST } from '../answerPath/pathCues';
import { cueTable, firstCue, type CueTable, type TurnText } from '../text/turnText';

/** The rule that refused a turn, for the trace. */
export interface Refusal {
	rule: 'secret' | 'commit_secret' | 'destructive_prod';
	cue: string;
	match: string;
}

// Secret values and the files that hold them.
const SECRET_VALUE = String.raw`(?:(?:api|secret|access|private|signing|client|master|admin|root|license|deploy|service[- ]account)[ _-]?(?:keys?|secrets?|tokens?|passwords?)|api[ _-]?keys?|apikeys?|passwords?|passwd|pwd|passphrase|credentials?|creds|secrets?|(?:auth|bearer|session|refresh|access|github|gitlab|npm|pypi|aws|slack|stripe|sendgrid|twilio|openai|jwt|oauth|personal access|discord|telegram)[ _-]?tokens?|tokens?|private keys?|ssh keys?|access keys?|signing keys?|connection strings?|dsn|aws_secret_access_key|\w+_(?:key|secret|token|password)|(?:stripe|sendgrid|twilio|openai|anthropic|aws|gcp|azure|github|gitlab|slack|mailgun|mapbox|algolia|firebase|sentry|datadog|pagerduty|jira|npm|docker(?:hub)?)(?: api| secret| access| private)? keys?)`;
const SECRET_FILE = String.raw`(?:\.env(?!\.(?:example|sample|template|dist|defaults)\b)(?:\.[\w-]+)?|[\w-]+\.env(?![\w.-])|env\.(?:prod|production|local|staging)|secrets?\.(?:ya?ml|json|toml|txt)|credentials?(?:\.json|\.ya?ml|\.csv)?|service[-_]account[\w.-]*(?:\.json)?|[\w-]*\.(?:pem|p12|pfx|keystore|jks)|[\w-]+\.key|id_(?:rsa|ed25519|ecdsa)(?:\.pub)?|\.npmrc|\.pypirc|\.netrc|\.aws/credentials|kubeconfig|keyfile(?:\.json)?|master\.key|appsettings\.production\.json)`;
// Words after a secret noun that make it a topic ("password hashing", "token refresh logic").
const TOPIC_AFTER = String.raw`(?:hashing|hash|hashes|validation|validator|policy|policies|reset|field|fields|strength|rotation|format|manager|managers|management|handling|storage|length|requirements?|input|prompt|flow|loading|loader|logic|middleware|scanner|scanning|example|template|variable names?|names?|expiry|expiration|refresh logic|provider|helper|service|class|function|module|config(?:uration)?|settings|setup|scope|scopes|permissions?)`;
const REVEAL = String.raw`(?:show|print|reveal|display|dump|echo|cat|output|give|tell|send|paste|leak|expose|read out|copy|share|post|email|dm|slack|text|forward|list|spit out|type out|grab|fetch|get|pull|decode|decrypt|unmask)`;

/** A request to disclose a secret value (the existing cue table first, then broader forms). */
const DISCLOSE: CueTable = cueTable([
	{ name: 'reveal_secret', re: new RegExp(String.raw`\b${REVEAL}\s+(?:me\s+|us\s+|him\s+|her\s+|them\s+)?(?:(?:the|our|my|your|prod|production|staging|live|real|actual|current|full|raw|all|all the|whole|entire|value of|values of|contents? of|what's in|what is in|exact|plain ?text|unredacted|decoded)\s+){0,4}(?:[\w.-]+\s+){0,2}?(?:${SECRET_VALUE}|${SECRET_FILE})(?!\s+${TOPIC_AFTER}\b)(?![\w-])`) },
	{ name: 'ask_secret_value', re: new RegExp(String.raw`\bwhat(?:'s| is| are| was|s)\s+(?:the|our|my|prod|production|staging|live|real|actual|current)\s+(?:[\w.-]+\s+){0,3}?(?:${SECRET_VALUE})(?!\s+${TOPIC_AFTER}\b)(?![\w-])(?!\s+(?:called|named|stored|loaded|read|kept|set|defined|configured)\b)`) },
	{ name: 'secret_file_contents', re: new RegExp(String.raw`\b(?:contents? of|what(?:'s| is) (?:in|inside)|values? (?:in|from)|open up|read me)\s+(?:the |our |my )?(?:prod(?:uction)? )?${SECRET_FILE}(?![\w-])`) },
	{ name: 'secret_to_me', re: new RegExp(String.raw`\b(?:i need|need|i want|want|can i (?:have|get|see)|let me (?:see|have)|hand over|tell me)\s+(?:the |our |prod |production |staging |live |real |actual )*(?:[\w.-]+\s+){0,2}?(?:${SECRET_VALUE})(?!\s+${TOPIC_AFTER}\b)(?![\w-])\s*(?:,|\.|$|so\b|to\b|for\b|please\b|now\b|real quick|quick)`) },
]);

/** Committing or publishing a secret file. */
const COMMIT_VERB = String.raw`(?:commit|push|git add|add|check in|check-in|upload|publish|include|stage|track|hardcode|hard-code|paste)`;
const TO_REPO = String.raw`\b(?:to|into|in)\s+(?:the\s+)?(?:repo|repository|git|main|master|github|gitlab|source control|version control|commit|codebase|code)\b`;
const COMMIT_SECRET = new RegExp(String.raw`\b${COMMIT_VERB}\s+(?:the |our |my |this |that |a |an )?(?:[\w.-]+\s+){0,2}?(?:${SECRET_FILE}(?![\w-])(?!\s+${TOPIC_AFTER}\b)|(?:${SECRET_VALUE})(?![\w-])(?=[^?]{0,40}?${TO_REPO}))`);

// Destructive verbs and production targets.
const DESTRUCT = String.raw`(?:terraform destroy|kubectl delete|helm uninstall|dropdb|reset(?: the)? (?:[\w-]+ ){0,3}?(?:offsets?|database|db|data|cluster|tables?)|(?:sls|serverless|cdk|pulumi|sam|cloudformation) (?:remove|destroy|delete)|drop|truncate|delete(?: all| every)?(?: rows)?(?: from)?|wipe|purge|flush(?:all|db)?|nuke|destroy|terminate|tear down|teardown|rm -rf|remove all|erase|reset --hard|force[- ]push|push --force|push -f|disable|kill|shut down|shutdown|scale (?:down )?to (?:zero|0)|delete)`;
const PROD = String.raw`(?:prod|production|prd|live|customer|customers'?)\b`;
/** A destructive operation aimed at production; "how do I … safely" questions are exempt below. */
const DESTRUCTIVE_PROD: CueTable = cueTable([
	{ name: 'destroy_prod', re: new RegExp(String.raw`\b${DESTRUCT}\b[^.?!\n]{0,50}?\b${PROD}`) },
	{ name: 'prod_destroy', re: new RegExp(String.raw`\b${PROD}[^.?!\n]{0,30}?\b(?:drop|truncate|wipe|purge|flush|nuke|destroy|delete|rm -rf)\b`) },
	{ name: 'force_push_main', re: /\b(?:force[- ]push|push --force(?:-with-lease)?|push -f)\b[^.?!\n]{0,30}?\b(?:main|master|release(?:\/[\w.-]+)?|trunk|develop)\b/ },
	{ name: 'delete_no_where', re: /\bdelete from \w+\b(?![^.?!\n]*\bwhere\b)[^.?!\n]{0,40}?\b(?:on|in|against) (?:prod|production|live)\b/ },
]);
// A question about how or whether (not an order), or an explicitly non-production target.
const ASKS_HOW = /^(?:(?:ok|so|hey|hi|quick question|question)[,:]?\s+)*(?:how (?:do|does|would|should|can|could|to|is|are)|what(?:'s| is| are)? (?:the )?(?:safest|best|right|proper|recommended) way|is it (?:safe|ok|okay|possible)|should (?:i|we)|can (?:i|we) safely|what happens|why (?:does|did|is|would|do)|when (?:should|do|does)|where (?:do|does|is|are|should)|which (?:file|env|environment|variable|var|config|service|module)|does (?:the|our|it)|do we|are we|is (?:the|our|there))\b/;
const NOT_PROD = /\b(?:local(?:ly|host)?|dev(?:elopment)? db|test(?:ing)? (?:db|database|table|data)|my (?:own )?(?:feature )?branch|feature branch|sandbox|staging|docker(?:ized)? (?:db|postgres)|in-memory|fixture)\b/;
// Process and location questions about secrets stay ordinary: "where is the JWT key read from?".
const SECRET_PROCESS = /^(?:(?:ok|so|hey|hi|quick question|question)[,:]?\s+)*(?:where|how|which|why|when|does|do we|is there|are there|list (?:the |all )?(?:env(?:ironment)? var(?:iable)?s?|names)|explain how|walk me through how|show me (?:how|where|which))\b/;
// Location and mechanism questions need no process word: "how does the app get its AWS credentials?".
const SECRET_MECHANISM = /^(?:(?:ok|so|hey|hi|quick question|question)[,:]?\s+)*(?:where(?:'s| is| are| do| does)?|how (?:does|is|are|do we|do they|did we|come)|which (?:file|env|module|service|class|config|variable|var|secret manager)|why (?:does|is|are|did|can't|won't|isn't|doesn't))\b/;
const PROCESS_WORDS = /\b(?:loaded|loads|load|read from|reads|injected|inject|configured|wired|stored|rotate|rotation|rotating|mounted|picked up|come from|comes from|set up|defined|referenced|missing|fail(?:s|ing)? to (?:load|read)|not (?:found|set|loading))\b/;

/** The refusal rule that fires for this turn, or null. Pure; regexes compiled at module load. */
export function checkRefusal(t: TurnText): Refusal | null {
	const text = t.text;
	const processQuestion = SECRET_MECHANISM.test(t.core) || (SECRET_PROCESS.test(t.core) && PROCESS_WORDS.test(text));
	if (!processQuestion) {
		const old = firstCue(SECRET_REQUEST, text);
		if (old) return { rule: 'secret', cue: old.name, match: old.match };
		const hit = firstCue(DISCLOSE, text);
		if (hit) return { rule: 'secret', cue: hit.name, match: hit.match };
		const commit = COMMIT_SECRET.exec(text);
		if (commit && !/^(?:how|why|where|should|can|is|does)\b/.test(t.core)) return { rule: 'commit_secret', cue: 'commit_secret', match: commit[0].trim() };
	}
	if (ASKS_HOW.test(t.core) || NOT_PROD.test(text)) return null;
	const destroy = firstCue(DESTRUCTIVE_PROD, text);
	return destroy ? { rule: 'destructive_prod', cue: destroy.name, match: destroy.match } : null;
}
