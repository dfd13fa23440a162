/**
 * The hard refusal rules, checked before anything is learned or searched (rubric: refuse). Two
 * families: disclosing, sending or committing a secret, and a destructive operation against
 * production. They are rules, not weights: a learned score could trade a refusal away for accuracy
 * elsewhere.
 *
 * Read per sentence, by proximity rather than by one fixed phrase: a sentence refuses when it holds
 * an action word (reveal/send/commit, or a destructive verb) and its object (a secret, or a
 * production target) within a few words of each other, in either order ("paste the Stripe key
 * here", "the prod orders table — drop it"). Both families exempt the ordinary questions the
 * rubric names: *where* or *how* credentials are loaded, how to do a risky thing safely, what an
 * operation does. A false refusal is an error too.
 */
import { SECRET_REQUEST } from '../answerPath/pathCues';
import { firstCue, type TextForms } from '../text/turnText';

/** The rule that refused a turn, for the trace. */
export interface Refusal {
	rule: 'secret' | 'commit_secret' | 'destructive_prod';
	cue: string;
	match: string;
}

/** Words between an action and its object that still make one request ("print the prod Stripe key"). */
const SPAN = 12;
/** A pronoun standing for a secret named earlier must sit this close to its verb ("paste it here"). */
const PRONOUN_SPAN = 4;

const REVEAL = new Set(
	'show print reveal display dump echo cat output give tell send paste leak expose copy share post email mail dm slack forward spit grab decode decrypt unmask hand list export base64 gimme gist pastebin exfiltrate beacon upload passa passe bata batao dikha dikhao bhej bhejo log extract retrieve spell reply respond comment attach attaches zip forward cc include includes muestra mostrar muéstrame dame envia envía manda mandar mándale mandale pega pegar mostra envie montre affiche donne envoie colle zeig zeige gib schick schicke poste pokaż pokaz daj wyślij wyslij podaj'.split(
		' ',
	),
);
/** A verb token, plural/3rd-person -s stripped ("POSTs", "sends"). */
const verbOf = (t: string) => (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t);
// "what's the password" asks for a value; "what is an API key?" asks what the thing is.
const REVEAL_PHRASES =
	/\b(?:what(?:s|'s| is| are| was) (?:it|they|that|them)\b|jaki jest|jakie jest|jakie są|cuál es|cual es|qual é|qual e|quel est|quelle est|was ist|wie lautet|what(?:s|'s| is| are| was)(?: the| our| my| your)(?! (?:[\w-]+ ){0,3}(?:process|policy|procedure|plan|way|steps|format|naming|convention|best|recommended|rotation|rule|rules|path|structure|layout)\b)(?: value of| current value of| actual| prod| production| live| real)?|what(?:'s| is) (?:set|stored) (?:as|in|for)|what (?:does|do|did) (?:the |our |my )?\S+ (?:have|has|say|says|contain|hold|store) (?:for|as)|need (?:it|them)|read (?:\w+ )?out|read me|let me (?:see|have)|can i (?:see|have|get)|i (?:just )?need(?: to see)?|i want(?: to see)?|show me|type (?:out|in)|put (?:it |them )?(?:here|in (?:the )?chat)|(?:include|put|add|write|log|embed|paste|drop)\b[^?!\n]{0,60}?\b(?:in|into|to) (?:your |the |a |this |my )?(?:reply|answer|response|message|chat|commit message|log|logs|output|stdout|console|pr|pull request|issue|comment|ticket|slack|teams|email|screenshot|readme|wiki|fixture|channel))\b/g;
// Commands whose output is the secrets themselves.
const SECRET_COMMAND =
	/\b(?:credentials:(?:show|edit)|printenv|base64 (?:-d|--decode)|sops (?:-d|--decrypt)|op read|ssm get-parameters? [^\n]*--with-decryption|kubectl get secrets?\b[^.?!\n]*(?:-o|--output)|vault (?:kv )?(?:get|read)|secretsmanager get-secret-value|gcloud secrets versions access|az keyvault secret show|heroku config(?::get)?|user-secrets list|cat ~?\/?\.?(?:aws\/credentials|ssh\/id_\w+|env\S*))\b|(?:-d|--data(?:-binary)?|-F|--form)\s+@\S*(?:\.env|secret|cred|\.pem|id_rsa)\S*|\bgit add (?:-f|--force)\b[^\n]*(?:\.env|secret|credential|\.pem|\.key\b|id_rsa|kubeconfig|tfstate)|\b(?:remove|delete|drop|take)\s+\S*(?:\.env|secrets?|credentials)\S* (?:from|out of) (?:the )?\.gitignore/;
const COMMIT = new Set(
	'commit push add upload publish stage track hardcode hard-code inline check-in checkin bake embed put commita commitea sube subir wrzuć wrzuc'.split(
		' ',
	),
);
const COMMIT_SPAN = 12;
const COMMIT_PHRASES =
	/\b(?:check (?:[\w.\/-]+ ){0,4}in(?:to)?|git add|paste (?:it |them )?into|put (?:it |them )?(?:in|into))\b/g;
// Where a committed or published secret ends up: the repository, code, config, or somewhere public.
const COMMIT_TARGET =
	/\b(?:commit|push|git add|check in|into|upload|publish|repo|repository|source|code|readme|public|docs|wiki|confluence|gist|pastebin|issue|ticket|channel|chat|here|workflow|dockerfile|compose|ya?ml|hardcode|hard-code|inline|[\w-]+\.(?:ts|js|py|go|rs|java|cs|rb|php|json|toml|ini|cfg|conf|properties|xml|tf))\b|(?:^|\s)\.(?:npmrc|env)\b/;

// A secret, by name ("api key", "password"), by file (".env.production", "id_rsa") or by variable (STRIPE_SECRET_KEY).
const SECRET_WORDS =
	/^(?:secrets?|passwords?|passwd|pwd|passphrases?|credentials?|creds|tokens?|apikeys?|api[_-]?keys?|private[_-]?keys?|keys?|dsn|cookies?|otp|totp|2fa|mfa|kubeconfig|keystore|keyfile|pat|user\/pass(?:word)?|username\/password|login\/password|plaintext|pw|logins?|contraseñas?|contrasena|senhas?|passwort|passwörter|kennwort|zugangsdaten|credenciales|credenciais|identifiants|hasło|haslo|hasła|klucz|kluczem|klucza|clave|claves|chave|clé|cle|schlüssel|recovery|backup-codes|authorization|bearer)$/;
const SECRET_FILE =
	/^(?:\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[\w-]+)?|[\w-]+\.env|keystore\.properties|google-services\.json|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.databrickscfg|credentials(?:\.json|\.ya?ml|\.csv)?|secrets?\.(?:ya?ml|json|toml|txt|env)|service[-_]?account[\w.-]*|[\w-]*\.(?:pem|p12|pfx|jks|keystore|p8|ppk)|[\w-]+\.key|id_(?:rsa|ed25519|ecdsa|dsa)|master\.key|appsettings\.production\.json|kubeconfig[\w.-]*|terraform\.tfstate(?:\.backup)?|[\w-]*\.tfstate|firebase-adminsdk[\w-]*\.json|\.git-credentials|\.dockercfg|htpasswd|\.htpasswd)$/;
const SECRET_VAR =
	/^[a-z0-9]+(?:_[a-z0-9]+)*_(?:key|secret|token|password|passwd|pwd|dsn|pat|credentials?)$|^(?:database|db|redis|mongo|amqp)_url$/;
// After a secret word, these make it a topic, not a value ("password hashing", "token refresh logic").
const TOPIC_AFTER = new Set(
	'enrollment enrolment qr reset hashing hash hashes validation validator validate policy policies reset field fields strength rotation rotate format manager management handling handler storage length requirement requirements input prompt flow loading loader logic middleware scanner scanning example template variable variables name names expiry expiration refresh provider helper service class function module config configuration settings setup scope scopes permission permissions bucket buckets leak leaks check checks error errors type types schema generation generator count limit limits parsing parser bindings binding mapping'.split(
		' ',
	),
);
// A secret that is only named, not requested: "the key name", "which env var".
// Just before a secret, these make it harmless: "a fake key", "redact the token".
const HARMLESS_BEFORE =
	/^(?:random|fake|dummy|placeholder|sample|example|mock|generate[ds]?|create[ds]?|rotate[ds]?|revoke[ds]?|regenerate[ds]?|reissue[ds]?|redact(?:ed|s|ing)?|mask(?:ed|s|ing)?|scrub(?:bed|s|bing)?|strip(?:ped|s|ping)?|remove[ds]?|hide|obfuscate[ds]?|invalid|expired|revoked|own|local|dev|test)$/;
const PLACEHOLDER_SENTENCE =
	/\b(?:placeholder|dummy|fake|\.env\.example|sample values?|whether|(?:don't|do not|dont|never|without) (?:print|show|reveal|paste|display|output|log|expose)\w*|not the (?:value|values|key itself)|is (?:it |they )?(?:set|present|defined|configured)(?! to\b)|not what it is|without (?:the |its |their )?values?)\b/;

// Questions about where, how or why — ordinary workspace questions, never refused. For secrets only
// the location and mechanism shapes exempt ("is there a way to see the prod password?" is a request).
const SECRET_ORDINARY =
	/^(?:(?:ok|okay|so|hey|hi|hmm|quick question|question|also|and|but|btw)[,:]?\s+)*(?:where|how (?:does|do|is|are|can i (?:safely|securely|properly)|should|would (?:i|we) (?:safely|securely|properly))|which (?:file|env|module|service|class|config|variable|var|secret manager|vault|path|key name)|why (?:does|is|are|did|do|can't|won't|isn't|doesn't)|when (?:does|do|is|are|should)|what happens|explain (?:how|where|why|what)|walk me through (?:how|why|where|adding|setting up|configuring|wiring|creating|storing|rotating|revoking|removing|scrubbing)|what (?:would|will|does|do)\b(?![^?!]{0,40}\b(?:have|has|say|says|contain|contains|hold|holds|store|stores) (?:for|as|in)\b)|is (?:the |this |that |it |`)|(?:can|could) you (?:tell|show) me (?:where|how|which|why|whether|if)|tell me (?:where|how|which|why|whether|if)|show me (?:where|how|which)|list (?:the |all )?(?:env(?:ironment)? ?var(?:iable)?s?|names|places|files))\b/;
const ORDINARY_QUESTION =
	/^(?:(?:ok|okay|so|hey|hi|hmm|quick question|question|also|and|but|btw)[,:]?\s+)*(?:where|how|which|why|when|does|do (?:we|you|i|they)|is (?:there|it|the|our)|are (?:there|the|our|we)|should|could (?:we|i) safely|can (?:we|i) safely|what (?:would|will|happens|would happen|does|do|is the (?:best|safest|right|recommended)|are the (?:risks|steps))|explain|walk me through (?:how|why|what)|(?:can|could) you (?:tell|show) me (?:where|how|which|why|whether|if)|tell me (?:where|how|which|why|whether|if)|show me (?:where|how|which)|is it (?:safe|ok|okay|possible)|list (?:the |all )?(?:env(?:ironment)? ?var(?:iable)?s?|names|places|files))\b/;

const DESTROY = new Set(
	'drop dorp drpo truncate trunacte trucate wipe purge flush flushall flushdb nuke destroy terminate delete delte deleet erase remove teardown rm rb kill disable clear empty revoke deletemany dropdatabase deleteall overwrite prune xdelete lösch lösche wyczyść wyczysc usuń borra borrar elimina eliminar trunca truncar vacía vaciar apaga apagar exclui excluir deleta deletar supprime supprimer efface effacer vide lösche löschen leere leeren usuń usun skasuj'.split(
		' ',
	),
);
const DESTROY_PHRASES =
	/\b(?:tear down|force[- ]push|push (?:--force(?:-with-lease)?|-f)|reset --hard|scale (?:\w+ )?(?:down )?to (?:zero|0)|rm -rf|delete from|turn off|switch off|shut off|helm uninstall|kubectl delete|terraform destroy|pulumi destroy|cdk destroy|sls remove|serverless remove|dropdb|reset (?:the )?(?:[\w-]+ ){0,3}(?:offsets?|database|db|data|cluster|tables?)|(?:migrate|db):rollback|migrate down|down[- ]migrations?|restore [^.?!\n]{0,40}(?:over|onto|into) (?:the )?(?:prod|production)|scale [^.?!\n]{0,60}(?:to )?(?:zero|0)\b|s3 rm [^\n]*--recursive|-x ?delete\b|update \w+ set\b(?![^;\n]*\bwhere\b)|pg_restore [^\n]*--clean|gsutil (?:-m )?rm -r|az group delete|gcloud [\w ]{0,40} delete)\b/g;
const PROD_WORDS =
	/^(?:prod|production|prd|live|customers?|producción|produccion|produção|producao|produktion|produkcja|produkcji|(?:[\w-]+[-_])?(?:prod|production|prd)(?:[-_][\w-]+)?)$/;
const BRANCH_WORDS = /^(?:(?:origin|upstream)\/)?(?:main|master|trunk|release(?:\/[\w.-]+)?|develop)$/;
const NOT_PROD_ANYWHERE = /\b(?:local(?:ly|host)?|dev|development|test|testing|staging|sandbox|dry[- ]run|preview)\b/;
const NOT_PROD_WORDS =
	/^(?:local|locally|localhost|dev|development|test|testing|staging|sandbox|scratchpad|fixture|fixtures|feature|in-memory|docker|dockerized|throwaway|temp|tmp|ephemeral|preview|qa|uat|ci)$/;
// Writing about a destructive step is not running it.
// "disable deletion protection on prod-db", "skip the plan", "we've never needed it" are not drafting.
const DRAFTING =
	/\b(?:runbook|checklist|(?:write|draft|make|review|prepare|create|need) (?:a |the |an |our )?(?:[\w-]+ )?plan|plan (?:for|out|how)|procedure|document|docs?|draft|review|explain|describe|rollback plan|plan -{1,2}destroy|what-if|never (?:\w+ ){0,2}(?:run|do|execute|apply|drop|delete|truncate|wipe|destroy|touch|allow|let|happens?)|prevent\w*|protect(?:s|ed|ing)? (?:against|from|it|them|prod|production|the)|(?:add|enable|turn on|set up|keep)\b[^.?!\n]{0,30}\bprotection|make sure|avoid|by accident|accidental\w*|safeguard|(?:do not|don't|dont) (?:run|execute|apply|do))\b/;

// Sentences end at . ? ! before a space, or at a line break — not inside ".env.production" or at
// the ';' of SQL in backticks.
const SENTENCE_BREAK = /(?<![\s(](?:incl|e\.g|i\.e|etc|vs|approx|esp|cf|ca|w\/o)\.)(?<=[.?!])\s+|\n+/;
const TOKEN = /[\p{L}\p{N}_./@:=$-]+/gu;

/** Token positions of a phrase regex's matches (its first word's index). */
function phrasePositions(sentence: string, tokens: readonly string[], starts: readonly number[], re: RegExp): number[] {
	const out: number[] = [];
	re.lastIndex = 0;
	for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
		let i = 0;
		while (i + 1 < starts.length && starts[i + 1] <= m.index) i++;
		out.push(i);
	}
	void tokens;
	return out;
}

function near(a: readonly number[], b: readonly number[], span: number): [number, number] | null {
	for (const i of a) for (const j of b) if (Math.abs(i - j) <= span) return [i, j];
	return null;
}

function tokenize(sentence: string): { tokens: string[]; starts: number[] } {
	const tokens: string[] = [];
	const starts: number[] = [];
	TOKEN.lastIndex = 0;
	for (let m = TOKEN.exec(sentence); m; m = TOKEN.exec(sentence)) {
		tokens.push(m[0].replace(/[.:,]+$/, ''));
		starts.push(m.index);
	}
	return { tokens, starts };
}

/** Positions of secret mentions that are values, not topics. */
// Tokens worth the file and variable patterns: they carry a dot, an underscore, a slash or a dash.
const FILEISH = /[._/-]/;

function secretPositions(tokens: readonly string[]): number[] {
	const out: number[] = [];
	for (let i = 0; i < tokens.length; i++) {
		const raw = tokens[i];
		const t = raw.charCodeAt(0) === 36 /* $ */ || raw.endsWith('}') ? raw.replace(/^\$\{?|\}$/g, '') : raw;
		// A wallet's seed phrase is a secret; "rerun the seed" is test data.
		const seed =
			/^seeds?$/.test(t) &&
			(/^(?:phrase|phrases|words)$/.test(tokens[i + 1] ?? '') ||
				/^(?:wallet|mnemonic|recovery)$/.test(tokens[i - 1] ?? ''));
		let named = seed || SECRET_WORDS.test(t) || (t === 'connection' && tokens[i + 1]?.startsWith('string'));
		if (!named && FILEISH.test(t)) {
			const base = t.replace(/\/+$/, '').split('/').pop() ?? t;
			named =
				SECRET_FILE.test(base) ||
				(t.endsWith('/') && /^secrets?$|^credentials$|^keys$|^certs$/.test(base)) ||
				SECRET_VAR.test(t) ||
				(!t.startsWith('.') &&
					t.split(/[-_]/).some((p) => /^(?:secrets?|passwords?|tokens?|credentials?|apikey)$/.test(p)));
			// A dotted config key whose last segment is a secret: spring.datasource.password, auth.token.
			if (!named && !t.startsWith('.') && t.includes('.'))
				named = /^(?:password|passwd|secret|token|api[-_]?key|private[-_]?key|credentials?|client[-_]secret)$/.test(
					t.slice(t.lastIndexOf('.') + 1),
				);
		}
		if (!named) continue;
		// "key" alone is a secret only with an owner word before it ("the stripe key", "our signing key").
		if (
			/^keys?$/.test(t) &&
			!/^(?:api|secret|private|signing|access|stripe|sendgrid|twilio|aws|gcp|azure|ssh|deploy|license|master|encryption|jwt|openai|github|gitlab|npm|service|json|account|admin|root|client|prod|production|live|unseal|recovery|kms|gpg|pgp|full|whole|entire|actual|real|raw|the|our|my|that|this)$/.test(
				tokens[i - 1] ?? '',
			)
		)
			continue;
		if (
			/^keys?$/.test(t) &&
			/^(?:the|our|my|that|this)$/.test(tokens[i - 1] ?? '') &&
			!/^(?:is|was|value)$/.test(tokens[i + 1] ?? '') &&
			!/\b(?:api|secret|private|signing|access|license|ssh)\b/.test(tokens.slice(Math.max(0, i - 4), i).join(' '))
		)
			continue;
		if (TOPIC_AFTER.has(tokens[i + 1] ?? '')) continue;
		out.push(i);
	}
	return out;
}

// Work on secrets that keeps them secret: masking, scanning, blocking, rotating.
const PROTECTIVE =
	/^(?:mask|redact|scrub|strip|remove|hide|obfuscate|rotate|revoke|sanitize|sanitise|encrypt|hash|censor|audit|find|search|grep|look for|scan)\b|\b(?:i|we) (?:accidentally |mistakenly |just )?(?:committed|pushed|leaked|exposed|published)\b|\bsecrets\.(?!(?:ya?ml|json|env|toml|txt|ini|properties)\b)[a-z_]+|\binstead of (?:the )?hard-?coded|\b(?:revoking|scrubbing|rotating)\b|\bas (?:an? )?(?:[\w-]+ ){0,2}secrets?\b|\b(?:github|repository|repo|environment|ci|actions|pipeline) secrets?\b|\b(?:pre-commit|gitignore|dockerignore|hooks?|scanner|gitleaks|trufflehog|git-secrets|detect-secrets|filter-repo|filter-branch|bfg)\b|\b(?:purge|scrub|remove|strip|expunge|erase|delete)\b[^.?!\n]{0,60}\bfrom (?:the )?(?:git |all |entire |whole |repo |repository )*history\b|\b(?:blocks?|prevents?|detects?|scans?|check for|flags?)\s+(?:[\w-]+\s+){0,2}(?:commits?|pushes|secrets?|leaks?|keys?|tokens?|credentials?)\b/;
// "tell me where it is", "show me how it's loaded": the verb asks about a place or a way, not a value.
const UNIGNORE =
	/\b(?:remove|delete|drop|take|un-?ignore)\s+\S*(?:\.env|secrets?|credentials|\.pem|\.key)\S* (?:from|out of) (?:the )?\.?gitignore\b/;
const VALUE_OF =
	/\b(?:print|show|paste|give|tell|send|echo|output|display|dump|reveal|read out)\b (?:me |us )?(?:the )?(?:actual |real |current |full |raw |plain ?text )?(?:value|contents?) of (?:the |our |my )?[`'"]?(\$?[\w.\/-]+)/;
const ASKS_ABOUT = new Set(['where', 'how', 'which', 'why', 'whether', 'if', 'when']);

function secretRule(sentence: string, core: string, earlierSecret: boolean): Refusal | null {
	// Un-ignoring a secret file to commit it is a commit, whatever else the sentence says.
	const unignore = UNIGNORE.exec(sentence);
	if (unignore) return { rule: 'commit_secret', cue: 'unignore_secret', match: unignore[0] };
	if (SECRET_ORDINARY.test(core)) return null;
	// "print the value of CF_API_TOKEN … so I can paste it into the CI secrets page": asking for the
	// value outright outweighs a protective word elsewhere in the sentence.
	const valueOf = VALUE_OF.exec(sentence);
	if (valueOf && secretPositions([valueOf[1].replace(/[`'".,]+$/, '')]).length)
		return { rule: 'secret', cue: 'value_of_secret', match: valueOf[0] };
	if (PROTECTIVE.test(core)) return null;
	if (SECRET_COMMAND.test(sentence))
		return { rule: 'secret', cue: 'secret_command', match: SECRET_COMMAND.exec(sentence)![0] };
	const { tokens, starts } = tokenize(sentence);
	const mentioned = secretPositions(tokens);
	// A secret named earlier (in this turn or the last ones) is "it", "the value", "the plaintext" now.
	// "The prod one", "the real one" too. A pronoun is an object only right after its verb: "i want my
	// new service to follow it" does not ask for the secret named before.
	const pronouns: number[] = [];
	if (earlierSecret)
		for (let i = 0; i < tokens.length; i++) {
			// "that" as a pronoun ("push that to origin"), not a determiner ("that event listener").
			if (
				/^(?:it|them)$/.test(tokens[i]) ||
				(tokens[i] === 'that' && /^(?:to|into|here|now|please|and|in|on|for|up|over|again)?$/.test(tokens[i + 1] ?? ''))
			)
				pronouns.push(i);
			else if (
				/^(?:value|values|contents?|output|plaintext)$/.test(tokens[i]) ||
				(tokens[i] === 'one' && /^(?:prod|production|real|live|actual)$/.test(tokens[i - 1] ?? ''))
			)
				mentioned.push(i);
		}
	const harmless = (i: number) =>
		[tokens[i - 1], tokens[i - 2], tokens[i - 3]].some((w) => w !== undefined && HARMLESS_BEFORE.test(w));
	const secrets = mentioned.filter((i) => !harmless(i));
	const kept = pronouns.filter((i) => !harmless(i));
	pronouns.length = 0;
	pronouns.push(...kept);
	const objects = [...secrets, ...pronouns];
	// "cool, now the values" / "the prod one" after a secret was named: a short ask for the value itself.
	if (
		earlierSecret &&
		tokens.length <= 8 &&
		!sentence.includes('?') &&
		!PLACEHOLDER_SENTENCE.test(sentence) &&
		tokens.some(
			(t, i) =>
				/^(?:value|values|plaintext|contents?)$/.test(t) ||
				(t === 'one' && /^(?:prod|production|real|live|actual)$/.test(tokens[i - 1] ?? '')),
		)
	)
		return { rule: 'secret', cue: 'ask_secret_value', match: sentence };
	if (!objects.length) return null;
	// Committing a secret file or value: whatever else the sentence says.
	const commit = tokens.flatMap((t, i) => (COMMIT.has(verbOf(t)) ? [i] : []));
	commit.push(...phrasePositions(sentence, tokens, starts, COMMIT_PHRASES));
	const c = near(commit, secrets, COMMIT_SPAN) ?? near(commit, pronouns, PRONOUN_SPAN);
	if (c && COMMIT_TARGET.test(sentence))
		return {
			rule: 'commit_secret',
			cue: 'commit_secret',
			match: tokens.slice(Math.min(...c), Math.max(...c) + 1).join(' '),
		};
	if (PLACEHOLDER_SENTENCE.test(sentence)) return null;
	// A bare variable name asked for ("DATABASE_URL for staging?").
	if (tokens.length <= 5 && sentence.endsWith('?') && secrets.some((i) => SECRET_VAR.test(tokens[i])))
		return { rule: 'secret', cue: 'ask_secret_value', match: sentence };
	const reveal = tokens.flatMap((t, i) =>
		(REVEAL.has(verbOf(t)) || REVEAL.has(t.split('-')[0])) &&
		!ASKS_ABOUT.has(tokens[i + 1] ?? '') &&
		!ASKS_ABOUT.has(tokens[i + 2] ?? '')
			? [i]
			: [],
	);
	reveal.push(...phrasePositions(sentence, tokens, starts, REVEAL_PHRASES));
	const r = near(reveal, secrets, SPAN) ?? near(reveal, pronouns, PRONOUN_SPAN);
	if (r)
		return { rule: 'secret', cue: 'reveal_secret', match: tokens.slice(Math.min(...r), Math.max(...r) + 1).join(' ') };
	return null;
}

/** A token's parts ("purge_queue" → purge, queue; "rabbit@prod-mq-01" → rabbit, prod, mq, 01). */
const parts = (t: string) => t.split(/[./:()@=_$-]+/).filter(Boolean);

function destructiveRule(sentence: string, core: string, earlierDestroy: boolean, earlierProd = false): Refusal | null {
	if (ORDINARY_QUESTION.test(core) || DRAFTING.test(sentence)) return null;
	const { tokens, starts } = tokenize(sentence);
	const destroy = tokens.flatMap((t, i) => (parts(t).some((p) => DESTROY.has(p)) ? [i] : []));
	// "ok, same thing but against production" after a destructive request.
	if (earlierDestroy && !STATEMENT_START.test(core))
		for (let i = 0; i < tokens.length; i++)
			if (/^(?:same|it|that|again|too|also|this)$/.test(tokens[i])) destroy.push(i);
	const phrases = phrasePositions(sentence, tokens, starts, DESTROY_PHRASES);
	destroy.push(...phrases);
	// Force-pushing over a shared branch destroys its history whatever the environment (checked before
	// the non-production words: "my local main over origin/main" is still main).
	if (/\bforce[- ]push|\bpush\b[^.?!\n]*(?:--force|\s-f\b|\bforce\b)/.test(sentence)) {
		const branch = tokens.flatMap((t, i) => (BRANCH_WORDS.test(t) ? [i] : []));
		const pushes = tokens.flatMap((t, i) => (/^(?:push|force-push|--force|-f)$/.test(t) ? [i] : []));
		const b = near(pushes, branch, 8);
		if (b)
			return {
				rule: 'destructive_prod',
				cue: 'force_push_shared',
				match: tokens.slice(Math.min(...b), Math.max(...b) + 1).join(' '),
			};
	}
	if (!destroy.length) return null;
	const prod = tokens.flatMap((t, i) => (PROD_WORDS.test(t) || parts(t).some((p) => PROD_WORDS.test(p)) ? [i] : []));
	// "rg-payments-prod is a mess. delete it": production was named in an earlier sentence.
	if (earlierProd)
		for (let i = 0; i < tokens.length; i++)
			if (/^(?:it|that|them|this|those|everything)$/.test(tokens[i])) prod.push(i);
	const d = near(destroy, prod, 10);
	// A non-production target closer to the verb than production wins ("drop the local copy").
	const notProd = tokens.flatMap((t, i) => (NOT_PROD_WORDS.test(t) ? [i] : []));
	if (d && notProd.length) {
		const dist = (xs: number[]) => Math.min(...destroy.flatMap((i) => xs.map((j) => Math.abs(i - j))));
		if (dist(notProd) < dist(prod)) return null;
	}
	if (d)
		return {
			rule: 'destructive_prod',
			cue: 'destroy_prod',
			match: tokens.slice(Math.min(...d), Math.max(...d) + 1).join(' '),
		};
	return null;
}

// "there's no prod inventory here anyway": a statement about the thread, not a go-ahead.
const STATEMENT_START =
	/^(?:there(?:'s| is| are)|it(?:'s| is) (?:not|in|on|at|a|an|the)|we (?:have|don't|do not|never)|i (?:have|don't|do not|think))\b/;

const LEAD =
	/^(?:(?:ok|okay|so|now|then|also|and|but|btw|please|pls|just|hey|hi|whatever|fine|alright|great|cool|right|quick one|one more thing)[,:]?\s+)+/;

const GO_AHEAD =
	/^(?:(?:ok|okay|yes|yeah|yep|sure|fine|great|cool|alright|right)[,.!]?\s*)*(?:(?:just |please |pls )?(?:do it|go ahead|proceed|run it|ship it|send it|push it|do that|yes please|please do|go for it|commit and push|commit it|push|confirm(?:ed)?|apply it|apply|execute it|run that)\b|(?:yes|yep|yeah|ok|okay|sure)\s*[.!]*$)/;

/** What the last turns said: a secret named, a destructive step on production, a refused request. */
export interface RefusalContext {
	secret: boolean;
	destroy: boolean;
	/** A destructive step against production was asked for or proposed. */
	destroyProd: boolean;
	refusedLast: boolean;
	/** The last reply offered something ("want me to push to a branch instead?"): a "yes" accepts that. */
	offered: boolean;
}

/** How many earlier messages the refusal context reads (a destructive ask two turns back still counts). */
const CONTEXT_MESSAGES = 4;
const NO_CONTEXT: RefusalContext = {
	secret: false,
	destroy: false,
	destroyProd: false,
	refusedLast: false,
	offered: false,
};

/** Reads the last user turn and the last reply (short windows) for the refusal context. */
export function refusalContext(
	history: ReadonlyArray<{ role: string; content: string }>,
	needRefused = true,
): RefusalContext {
	const ctx: RefusalContext = { ...NO_CONTEXT };
	let seenUser = false;
	let seenAssistant = false;
	let read = 0;
	for (let i = history.length - 1; i >= 0 && read < CONTEXT_MESSAGES; i--) {
		const h = history[i];
		if (!h || typeof h.content !== 'string') continue;
		read++;
		const text = h.content.slice(0, 600).toLowerCase();
		for (const part of text.split(SENTENCE_BREAK)) if (secretPositions(tokenize(part).tokens).length) ctx.secret = true;
		if (
			/\b(?:drop|truncate|wipe|purge|flush\w*|destroy|delete|terminate|rm -rf|force[- ]push|tear down)\b/.test(text)
		) {
			ctx.destroy = true;
			// A go-ahead runs what was proposed: the user's own destructive ask, or the reply offering to run one.
			if (/\b(?:prod|production|prd|live)\b|[\w-]+-prod\b|\bprod-[\w-]+/.test(text)) ctx.destroyProd = true;
		}
		if (h.role === 'user') {
			if (!seenUser && needRefused) ctx.refusedLast = checkTurn(text, NO_CONTEXT) !== null;
			seenUser = true;
		} else if (!seenAssistant) {
			seenAssistant = true;
			// The last reply offered something safe ("I won't force-push; want me to open a PR instead?").
			const offers =
				/\b(?:want me to|shall i|should i|would you like|instead\b|i can (?:also )?(?:push|open|create|write|draft|show|run))/.test(
					text,
				);
			const destructive =
				/\b(?:drop|truncate|wipe|purge|flush\w*|destroy|delete|terminate|rm -rf|force[- ]push)\b/.test(text);
			ctx.offered =
				offers && (!destructive || /\b(?:won't|will not|can't|cannot|instead|rather|not going to)\b/.test(text));
		}
	}
	return ctx;
}

// Cheap scans that rule most turns out before any sentence is tokenised.
const MAY_NAME_SECRET =
	/secret|passw|pwd|passphrase|cred|token|key|\.env|env\b|\.pem|dsn|cookie|otp|2fa|mfa|seed|kubeconfig|keystore|keyfile|user\/pass|plaintext|_url|npmrc|pypirc|netrc|id_rsa|id_ed|id_ecdsa|\.p12|\.pfx|\.jks|\.p8|\.ppk|pgpass|databrickscfg|service.?account|printenv|heroku config|vault|sops|base64|ssm|authori[sz]ation|bearer|recovery|login|\bpw\b|contrase|senha|hasł|hasl|klucz|clave|chave|clé|schlüssel|zugangsdaten|kennwort|identifiants|tfstate|htpasswd|sentry|headers/;
// Built from the destructive vocabulary (plain words: nothing to escape) plus the phrase heads.
const MAY_DESTROY = new RegExp(
	`${[...DESTROY].join('|')}|tear|rm |force|push|reset|turn off|switch off|shut off|uninstall|scale|rollback|migrat|restore|pg_restore|update|-x ?delete`,
);
// An action word that could take a secret named earlier as its object (reveal, send, commit, a value).
const MAY_ACT = new RegExp(
	`\\b(?:${[...REVEAL, ...COMMIT].join('|')}|what|need|want|let me|can i|value|values|plaintext|contents?|one|prod|production)\\b`,
);
const LEANS_BACK =
	/\b(?:it|them|that|those|value|values|contents?|output|plaintext|same|again|too|also|this|(?:prod|production|real|live|actual) one)\b/;

function checkTurn(text: string, ctx: RefusalContext): Refusal | null {
	const secretish = ctx.secret || MAY_NAME_SECRET.test(text);
	const destroyish = MAY_DESTROY.test(text) || (ctx.destroy && LEANS_BACK.test(text));
	if (!secretish && !destroyish) return null;
	let earlierSecret = ctx.secret;
	let earlierProd = false;
	for (const part of text.split(SENTENCE_BREAK)) {
		const sentence = part.trim();
		if (!sentence) continue;
		const core = sentence.replace(LEAD, '');
		// A secret named in the earlier turns is "it" only in the request's first real sentence; after
		// that, "it" has antecedents in the turn itself.
		const hit =
			(secretish ? secretRule(sentence, core, earlierSecret) : null) ??
			(destroyish ? destructiveRule(sentence, core, ctx.destroy, earlierProd) : null);
		if (hit) return hit;
		if (!earlierProd && /\b(?:prod|production|prd|live)\b|[\w-]+-prod\b|\bprod-[\w-]+/.test(sentence))
			earlierProd = true;
		const named = secretish && secretPositions(tokenize(sentence).tokens).length > 0;
		// A short reaction ("nah too slow.") does not give "it" a new antecedent.
		if (tokenize(sentence).tokens.length >= 5) earlierSecret = named;
		else if (named) earlierSecret = true;
	}
	return null;
}

/**
 * The refusal rule that fires for this turn, or null. Pure; reads the turn's rule window and, for
 * "yes, do it" / "now paste it here", the last user turn and reply (`refusalContext`).
 */
export function checkRefusal(
	t: Pick<TextForms, 'text' | 'core'>,
	history: ReadonlyArray<{ role: string; content: string }> = [],
): Refusal | null {
	// The earlier turns matter only to a turn that leans on them ("yes, do it", "paste it here", "same
	// for prod"): a go-ahead, or a back-reference next to an action or production word.
	const goAhead = history.length > 0 && GO_AHEAD.test(t.core);
	const leans = history.length > 0 && LEANS_BACK.test(t.text) && (MAY_ACT.test(t.text) || MAY_DESTROY.test(t.text));
	const ctx = goAhead || leans ? refusalContext(history, goAhead) : NO_CONTEXT;
	if ((ctx.refusedLast || ctx.destroyProd) && !ctx.offered && GO_AHEAD.test(t.core) && !NOT_PROD_ANYWHERE.test(t.text))
		return { rule: ctx.destroyProd ? 'destructive_prod' : 'secret', cue: 'go_ahead_after_refusal', match: t.core };
	const old = firstCue(SECRET_REQUEST, t.text);
	if (old && !ORDINARY_QUESTION.test(t.core)) return { rule: 'secret', cue: old.name, match: old.match };
	// "How can I give the Vercel token to Ana? Can you send it to her?": "it" is the token.
	return checkTurn(t.text, ctx);
}
