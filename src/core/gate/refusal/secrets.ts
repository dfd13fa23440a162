/**
 * Refusal family 1: disclosing, sending or committing a secret (rubric: refuse). A sentence refuses
 * when a reveal/send/commit action sits within a few words of a secret named by word, file or
 * variable; where and how credentials are loaded, and work that keeps a secret secret, are ordinary.
 */
import { type Refusal, verbOf, near, phrasePositions, tokenize, REPORTED } from './vocabulary';

/** Words between an action and its object that still make one request ("print the prod Stripe key"). */
export const SPAN = 12;
/** A pronoun standing for a secret named earlier must sit this close to its verb ("paste it here"). */
export const PRONOUN_SPAN = 4;

export const REVEAL = new Set(
	'open show print reveal display dump echo cat curl output give tell send paste leak expose copy share post email mail dm slack forward spit grab decode decrypt unmask hand list export base64 gimme gist pastebin exfiltrate beacon upload passa passe bata batao dikha dikhao bhej bhejo log extract retrieve spell reply respond comment attach attaches zip forward cc include includes muestra mostrar muéstrame dame envia envía manda mandar mándale mandale pega pegar mostra envie montre affiche donne envoie colle zeig zeige gib schick schicke poste pokaż pokaz daj wyślij wyslij podaj'.split(
		' ',
	),
);

// "what's the password" asks for a value; "what is an API key?" asks what the thing is.
export const REVEAL_PHRASES =
	/\b(?:what(?:s|'s| is| are| was) (?:it|they|that|them)\b|jaki jest|jakie jest|jakie są|cuál es|cual es|qual é|qual e|quel est|quelle est|was ist|wie lautet|what(?:s|'s| is| are| was)(?: the| our| my| your)(?! (?:[\w-]+ ){0,3}(?:process|policy|procedure|plan|way|steps|format|naming|convention|best|recommended|rotation|rule|rules|path|structure|layout)\b)(?: value of| current value of| actual| prod| production| live| real)?|what(?:'s| is) (?:set|stored) (?:as|in|for)|what (?:does|do|did) (?:the |our |my )?\S+ (?:have|has|say|says|contain|hold|store) (?:for|as)|need (?:it|them)|read (?:\w+ )?out|read me|let me (?:see|have)|can i (?:see|have|get)|i (?:just )?(?:need|want)(?! to (?:know|find out|understand|figure out|check|learn|see) (?:where|how|which|why|whether|if|when)\b)(?: to see)?|show me|type (?:out|in)|put (?:it |them )?(?:here|in (?:the )?chat)|(?:include|put|add|write|log|embed|paste|drop)\b[^?!\n]{0,60}?\b(?:in|into|to) (?:your |the |a |this |my )?(?:reply|answer|response|message|chat|commit message|log|logs|output|stdout|console|pr|pull request|issue|comment|ticket|slack|teams|email|screenshot|readme|wiki|fixture|channel))\b/g;
// Commands whose output is the secrets themselves.
export const SECRET_COMMAND =
	/\b(?:credentials:(?:show|edit)|printenv|base64 (?:-d|--decode)|sops (?:-d|--decrypt)|op read|ssm get-parameters? [^\n]*--with-decryption|kubectl get secrets?\b[^.?!\n]*(?:-o|--output)|vault (?:kv )?(?:get|read)|secretsmanager get-secret-value|gcloud secrets versions access|az keyvault secret show|heroku config(?::get)?|user-secrets list|cat ~?\/?\.?(?:aws\/credentials|ssh\/id_\w+|env\S*))\b|(?:-d|--data(?:-binary)?|-F|--form)\s+@\S*(?:\.env|secret|cred|\.pem|id_rsa)\S*|\bgit add (?:-f|--force)\b[^\n]*(?:\.env|secret|credential|\.pem|\.key\b|id_rsa|kubeconfig|tfstate)|\b(?:remove|delete|drop|take)\s+\S*(?:\.env|secrets?|credentials)\S* (?:from|out of) (?:the )?\.gitignore/;
export const COMMIT = new Set(
	'commit push add upload publish stage track hardcode hard-code inline check-in checkin bake embed put commita commitea sube subir wrzuć wrzuc'.split(
		' ',
	),
);
export const COMMIT_SPAN = 12;
export const COMMIT_PHRASES =
	/\b(?:check (?:[\w.\/-]+ ){0,4}in(?:to)?|git add|paste (?:it |them )?into|(?:put|stick|drop|shove|dump|throw|plop|slap) (?:it |them |that |those )?(?:in|into))\b/g;
// Where a committed or published secret ends up: the repository, code, config, or somewhere public.
export const COMMIT_TARGET =
	/\b(?:commit|push|git add|check in|into|upload|publish|repo|repository|source|code|readme|public|docs|wiki|confluence|gist|pastebin|issue|ticket|channel|chat|here|workflow|dockerfile|compose|ya?ml|csproj|fsproj|vbproj|pom|gradle|plist|manifest|appsettings|hardcode|hard-code|inline|config|plaintext|[\w-]+\.(?:ts|js|py|go|rs|java|cs|rb|php|json|toml|ini|cfg|conf|properties|xml|tf|csproj|fsproj|vbproj|gradle|kts|kt|swift|plist|xcconfig|ya?ml|hcl|tfvars|sh|ex|exs|scala|clj|cpp|h))\b|(?:^|\s)\.(?:npmrc|env)\b/;

// A secret, by name ("api key", "password"), by file (".env.production", "id_rsa") or by variable (STRIPE_SECRET_KEY).
export const SECRET_WORDS =
	/^(?:secrets?|passwords?|passwd|pwd|passphrases?|credentials?|creds|tokens?|apikeys?|api[_-]?keys?|private[_-]?keys?|keys?|dsn|cookies?|otp|totp|2fa|mfa|kubeconfig|keystore|keyfile|pat|user\/pass(?:word)?|username\/password|login\/password|plaintext|pw|logins?|contraseñas?|contrasena|senhas?|passwort|passwörter|kennwort|zugangsdaten|credenciales|credenciais|identifiants|hasło|haslo|hasła|klucz|kluczem|klucza|clave|claves|chave|clé|cle|schlüssel|backup-codes|authorization|bearer)$/;
/** "recovery" names a secret only as recovery codes / phrase / key ("a 30-day recovery window" is not one). */
export const RECOVERY_SECRET = /^(?:codes?|phrases?|keys?|words|seed)$/;
export const SECRET_FILE =
	/^(?:\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[\w-]+)?|\.renviron|\.envrc|[\w-]+\.env|keystore\.properties|google-services\.json|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.databrickscfg|credentials(?:\.json|\.ya?ml|\.csv)?|secrets?\.(?:ya?ml|json|toml|txt|env)|service[-_]?account[\w.-]*|[\w-]*\.(?:pem|p12|pfx|jks|keystore|p8|ppk)|[\w-]+\.key|id_(?:rsa|ed25519|ecdsa|dsa)|master\.key|appsettings\.production\.json|kubeconfig[\w.-]*|terraform\.tfstate(?:\.backup)?|[\w-]*\.tfstate|firebase-adminsdk[\w-]*\.json|\.git-credentials|\.dockercfg|htpasswd|\.htpasswd)$/;
export const SECRET_VAR =
	/^[a-z0-9]+(?:_[a-z0-9]+)*_(?:key|secret|token|password|passwd|pwd|dsn|pat|credentials?)$|^(?:database|db|redis|mongo|amqp|rmq|rabbitmq|rabbit|postgres|pg|mysql|broker)_url$/;
// After a secret word, these make it a topic, not a value ("password hashing", "token refresh logic").
export const TOPIC_AFTER = new Set(
	'enrollment enrolment qr reset hashing hash hashes validation validator validate policy policies reset field fields strength rotation rotate format manager management handling handler storage length requirement requirements input prompt flow loading loader logic middleware scanner scanning example template variable variables name names expiry expiration refresh provider helper service class function module config configuration settings setup scope scopes permission permissions bucket buckets leak leaks check checks error errors type types schema generation generator count limit limits parsing parser bindings binding mapping expired expires expiring section sections'.split(
		' ',
	),
);
// A secret that is only named, not requested: "the key name", "which env var".
// Just before a secret, these make it harmless: "a fake key", "redact the token".
export const HARMLESS_BEFORE =
	/^(?:random|fake|dummy|placeholder|sample|example|mock|generate[ds]?|create[ds]?|rotate[ds]?|revoke[ds]?|regenerate[ds]?|reissue[ds]?|redact(?:ed|s|ing)?|mask(?:ed|s|ing)?|scrub(?:bed|s|bing)?|strip(?:ped|s|ping)?|remove[ds]?|hide|obfuscate[ds]?|invalid|expired|revoked|own|local|dev|test)$/;
export const PLACEHOLDER_SENTENCE =
	/\b(?:placeholder|dummy|fake|\.env\.example|sample values?|whether|(?:don't|do not|dont|never|without) (?:print|show|reveal|paste|display|output|log|expose)\w*|not the (?:value|values|key itself)|is (?:it |they )?(?:set|present|defined|configured)(?! to\b)|not what it is|without (?:the |its |their )?values?|not (?:the )?values|names? only|only (?:the )?names|no values)\b/;

// Questions about where, how or why — ordinary workspace questions, never refused. For secrets only
// the location and mechanism shapes exempt ("is there a way to see the prod password?" is a request).
export const SECRET_ORDINARY =
	/^(?:(?:ok|okay|so|hey|hi|hmm|quick question|question|also|and|but|btw)[,:]?\s+)*(?:(?:are )?(?:you|u) sure\b|(?:does|did|will|would|might|could|can) (?!you\b|u\b|ya\b|we\b|i\b|anyone\b|anybody\b|someone\b|somebody\b)(?:[\w`'".-]+ ){1,4}(?:ever )?(?:leak|print|log|expose|send|show|include|store|write|output|dump|echo|return|mask|redact)\b|(?:it|this|that|they|which) (?:can|could|might|may|will|would|does|did) (?:ever |also |still )?(?:leak|print|log|expose|send|show|include|write|output|dump|echo|return)s?\b(?=[^?]*\?\s*$)|where|how (?:does|do|is|are|can i (?:safely|securely|properly)|should|would (?:i|we) (?:safely|securely|properly))|which (?:file|env|module|service|class|config|variable|var|secret manager|vault|path|key name)|why (?:does|is|are|did|do|can't|won't|isn't|doesn't)|when (?:does|do|is|are|should)|what happens|is there (?:a|an|any) (?:rule|policy|guideline|convention|standard|doc)|explain (?:how|where|why|what)|walk me through (?:how|why|where|adding|setting up|configuring|wiring|creating|storing|rotating|revoking|removing|scrubbing)|what (?:would|will|does|do)\b(?![^?!]{0,40}\b(?:have|has|say|says|contain|contains|hold|holds|store|stores) (?:for|as|in)\b)|is (?:the |this |that |it |`)|(?:can|could) you (?:tell|show) me (?:where|how|which|why|whether|if)|tell me (?:where|how|which|why|whether|if)|show me (?:where|how|which)|list (?:the |all )?(?:env(?:ironment)? ?var(?:iable)?s?|names|places|files))\b/;

const PASS_OWNER =
	/^(?:db|database|admin|root|ssh|smtp|ftp|sftp|mysql|postgres|pg|redis|wifi|user|account|sudo|master|prod|production|vpn|keystore|signing)$/;
// One typo away from a long secret word ("secrte", "pasword", "credentails"): typed fast, still asked.
const LONG_SECRET_WORDS = ['secret', 'secrets', 'password', 'passwords', 'credentials', 'credential', 'passphrase'];
/** At most one edit apart (optimal string alignment: a swap of neighbours is one edit). */
export function withinOneEdit(a: string, b: string): boolean {
	if (Math.abs(a.length - b.length) > 1 || a === b) return a === b;
	let i = 0;
	while (i < a.length && i < b.length && a[i] === b[i]) i++;
	if (a.length === b.length)
		return (
			a.slice(i + 1) === b.slice(i + 1) || // one substitution
			(a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)) // one transposition
		);
	return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
export const misspeltSecretWord = (t: string) =>
	t.length >= 5 && t.length <= 12 && /^[a-z]+$/.test(t) && LONG_SECRET_WORDS.some((w) => withinOneEdit(t, w));

// A resource's password by its short suffix ("db-checkout-pass", "smtp_pwd"); not "first-pass".
// "add SESSION_SECRET with a placeholder to .env.example": only a name is committed. "The real prod
// secret instead of the fake one" is still the secret.
const NAME_ONLY_COMMIT =
	/^(?!.*\b(?:real|actual|prod|production|live)\b).*\b(?:placeholder|\.env\.(?:example|sample|template|dist))\b/;
// A lowercased camelCase name that ends in a secret word; route and form names ("forgotPassword",
// "newPassword") and .NET's CancellationToken are not secrets.
const CAMEL_SECRET =
	/^(?!(?:forgot|reset|change|update|new|old|confirm|verify|validate|hash|check|show|toggle|require|requires|has|no|is|min|max)(?:password|passwd|secret))[a-z][a-z0-9]{1,20}(?:password|passwd|apikey|privatekey|accesskey|secretkey)$|^(?:client|app|api|jwt|session|signing|webhook|oauth|shared|consumer|master|encryption|hmac)secret$|^(?:access|auth|refresh|api|bearer|github|gitlab|npm|slack|bot|session|id|discord|telegram|jwt)token$/;
const PASS_SUFFIX =
	/^(?!(?:single|first|second|two|one|multi|by|final|last|next)[-_])[a-z0-9]+(?:[-_][a-z0-9]+)*[-_](?:pass|pwd|passwd)$/;

/** Positions of secret mentions that are values, not topics. */
// Tokens worth the file and variable patterns: they carry a dot, an underscore, a slash or a dash.
export const FILEISH = /[._/-]/;

/** keyInWindow: a secret was named in the last turns, so "the key" is that secret ("just commit the key"). */
export function secretPositions(tokens: readonly string[], keyInWindow = false): number[] {
	const out: number[] = [];
	for (let i = 0; i < tokens.length; i++) {
		const raw = tokens[i];
		const t = raw.charCodeAt(0) === 36 /* $ */ || raw.endsWith('}') ? raw.replace(/^\$\{?|\}$/g, '') : raw;
		// A wallet's seed phrase is a secret; "rerun the seed" is test data.
		const seed =
			/^seeds?$/.test(t) &&
			(/^(?:phrase|phrases|words)$/.test(tokens[i + 1] ?? '') ||
				/^(?:wallet|mnemonic|recovery)$/.test(tokens[i - 1] ?? ''));
		let named =
			seed ||
			SECRET_WORDS.test(t) ||
			misspeltSecretWord(t) ||
			// "the db pass", "root pass": a password by its short name after what it opens.
			(t === 'pass' && PASS_OWNER.test(tokens[i - 1] ?? '')) ||
			(t === 'recovery' && RECOVERY_SECRET.test(tokens[i + 1] ?? '')) ||
			(t === 'connection' && tokens[i + 1]?.startsWith('string')) ||
			// .NET's config section of connection strings ("ConnectionStrings:Default").
			/^connectionstrings?:\w/.test(t) ||
			// "cat the prod env file": the env file is the .env by another name.
			(t === 'env' && /^files?$/.test(tokens[i + 1] ?? ''));
		// camelCase names, lowercased here: storePassword, clientSecret, githubToken.
		if (!named) named = CAMEL_SECRET.test(t);
		if (!named && FILEISH.test(t)) {
			const base = t.replace(/\/+$/, '').split('/').pop() ?? t;
			named =
				SECRET_FILE.test(base) ||
				(t.endsWith('/') && /^secrets?$|^credentials$|^keys$|^certs$/.test(base)) ||
				SECRET_VAR.test(t) ||
				(!t.startsWith('.') &&
					(t.split(/[-_]/).some((p) => /^(?:secrets?|passwords?|tokens?|credentials?|apikey)$/.test(p)) ||
						PASS_SUFFIX.test(t)));
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
			!/^(?:api|secret|private|signing|access|sa|stripe|sendgrid|twilio|aws|gcp|azure|ssh|deploy|license|master|encryption|decryption|jwt|openai|github|gitlab|npm|service|json|account|admin|root|client|prod|production|live|unseal|recovery|kms|gpg|pgp|full|whole|entire|actual|real|raw|server|webhook|hmac|apns|fcm|firebase|vapid|oauth|sso|auth|mapbox|algolia|mailgun|pusher|app|the|our|my|that|this)$/.test(
				tokens[i - 1] ?? '',
			)
		)
			continue;
		if (
			/^keys?$/.test(t) &&
			/^(?:the|our|my|that|this)$/.test(tokens[i - 1] ?? '') &&
			!(
				/^(?:is|was)$/.test(tokens[i + 1] ?? '') &&
				/^(?:so|and|because|then|for|please|now|here)?$/.test(tokens[i + 2] ?? '')
			) &&
			!(keyInWindow || /^(?:value|values|contents?|file|material|itself)$/.test(tokens[i + 1] ?? '')) &&
			!/\b(?:api|secret|private|signing|access|license|ssh)\b/.test(tokens.slice(Math.max(0, i - 4), i).join(' '))
		)
			continue;
		// "the connection string format": the topic word follows the two-word name.
		const after = t === 'connection' && tokens[i + 1]?.startsWith('string') ? tokens[i + 2] : tokens[i + 1];
		if (TOPIC_AFTER.has(after ?? '')) continue;
		// "a failed login", "on every login": the event, not the credentials.
		if (
			/^logins?$/.test(t) &&
			/^(?:failed|successful|unsuccessful|first|last|each|every|per|after|before|on|at|during|social|sso)$/.test(
				tokens[i - 1] ?? '',
			)
		)
			continue;
		out.push(i);
	}
	return out;
}

// Work on secrets that keeps them secret: masking, scanning, blocking, rotating.
export const PROTECTIVE =
	/^(?:mask|redact|scrub|strip|remove|hide|obfuscate|rotate|revoke|sanitize|sanitise|encrypt|hash|censor|audit|find|search|grep|look for|scan)\b|\b(?:i|we) (?:accidentally |mistakenly |just )?(?:committed|pushed|leaked|exposed|published)\b|\bsecrets\.(?!(?:ya?ml|json|env|toml|txt|ini|properties)\b)[a-z_]+|\binstead of (?:the )?hard-?coded|\b(?:revoking|scrubbing|rotating)\b|\bas (?:an? )?(?:[\w-]+ ){0,2}secrets?\b|\b(?:github|repository|repo|environment|ci|actions|pipeline) secrets?\b|\b(?:pre-commit|gitignore|dockerignore|(?<![\w/.-])hooks?|scanner|gitleaks|trufflehog|git-secrets|detect-secrets|filter-repo|filter-branch|bfg)\b|\b(?:purge|scrub|remove|strip|expunge|erase|delete)\b[^.?!\n]{0,60}\bfrom (?:the )?(?:git |all |entire |whole |repo |repository )*history\b|\b(?:blocks?|prevents?|detects?|scans?|check for|flags?)\s+(?:[\w-]+\s+){0,2}(?:commits?|pushes|secrets?|leaks?|keys?|tokens?|credentials?)\b/;
// "tell me where it is", "show me how it's loaded": the verb asks about a place or a way, not a value.
export const UNIGNORE =
	/\b(?:remove|delete|drop|take|un-?ignore)\s+\S*(?:\.env|secrets?|credentials|\.pem|\.key)\S* (?:from|out of|off) (?:the )?\.?gitignore\b/;
export const VALUE_OF =
	/\b(?:print|show|paste|give|tell|send|echo|output|display|dump|reveal|read out|get|grab|fetch|pull|retrieve)\b (?:me |us )?(?:the )?(?:actual |real |current |full |raw |plain ?text )?(?:value|contents?) of (?:the |our |my )?[`'"]?(\$?[\w.\/-]+)|\bread (?:the |my |our )?[`'"]?(\$?[\w.\/-]+)[`'"]? (?:from|in|out of) (?:the |my |our )?\.env\b(?!\.(?:example|sample|template)\b)(?![^.?!\n]*\b(?:without|don't|do not|never) (?:print|show|reveal|echo|output))/;
// "hello, i need to understand where the API takes the stripe secret from": the question after the
// lead is what is asked.
export const EMBEDDED_QUESTION_LEAD =
	/^(?:(?:hello|hi|hey|ok|okay|so)[,!]?\s+)*(?:i (?:need|want|would like|'d like|am trying|'m trying|try) to (?:understand|know|find out|figure out|learn|check|see)|i(?:'m| am) (?:wondering|curious|not sure|unsure)|i (?:wonder|don't know|dont know|do not know)|(?:can|could) you (?:help me )?(?:understand|figure out|find out|check)|help me (?:understand|figure out|find out|find)|do you know|any idea|not sure)\s+/;
// "what's the CRM api key env var called": the name of a setting, not its value.
export const NAME_QUESTION =
	/\b(?:env(?:ironment)? ?var(?:iable)?|variable|setting|config(?:uration)? key|field|property) names?\b(?! (?:and|with|plus|&) )|\b(?:called|named)\s*(?:[,.?!]|$|\band\b)|\bname of (?:the )?(?:[\w-]+ ){0,3}(?:key|var|variable|setting|secret|env)\b/;
export const ASKS_ABOUT = new Set(['where', 'how', 'which', 'why', 'whether', 'if', 'when']);

// Before a verb, these make it a description or a noun, not a request: "that doesnt leak the
// password", "the publish job uses NPM_TOKEN", "will it log the token". A third-person form
// ("sends", "reads") describes, except in what the user asks to be written ("a script that reads
// the .env and POSTs every variable").
export const NOT_A_REQUEST_BEFORE = new Set(
	"t the a an this these those its our my your their his her which who whose does doesn't doesnt did didn't didnt will won't wont would wouldn't wouldnt could couldn't couldnt should shouldn't shouldnt might may must can't cant cannot never it he she they is was are were be been being has have had".split(
		' ',
	),
);
// After a verb, these make it a noun: "publish failed", "the send button".
export const NOUN_AFTER = new Set(
	'failed fails failing broke breaks job jobs step steps stage button workflow pipeline target task'.split(' '),
);
export function asksAction(tokens: readonly string[], i: number): boolean {
	const t = tokens[i];
	if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.includes('-'))
		return /^(?:that|which|and|also|then)$/.test(tokens[i - 1] ?? '');
	if (i > 0 && NOT_A_REQUEST_BEFORE.has(tokens[i - 1])) return false;
	// "the logger in app/logging.py print the DATABASE_URL": a file just before the verb is its subject.
	if (i > 0 && /\/|\.[a-z]{1,5}$/.test(tokens[i - 1]) && !tokens[i - 1].startsWith('.')) return false;
	return !NOUN_AFTER.has(tokens[i + 1] ?? '');
}

// "the values", "its plaintext", "me the contents" stand for a secret named before; "values from
// application.conf" are config values of the sentence's own request.
const VALUE_WORD = /^(?:value|values|contents?|plaintext)$/;
const VALUE_DETERMINER =
	/^(?:the|its|their|his|her|those|these|me|us|actual|real|raw|full|plain|decrypted|prod|production|live|staging|current|vault|secret|key|keyvault|stored|saved)$/;
const valueWord = (tokens: readonly string[], i: number) =>
	VALUE_WORD.test(tokens[i]) && (i === 0 || VALUE_DETERMINER.test(tokens[i - 1]));

// "copy .env.example to .env": the template is the source; nothing secret is shown or sent.
const TEMPLATE_COPY = /\b(?:copy|cp|duplicate)\s+\S*\.env\.(?:example|sample|template|dist)\b/;

// "print the current APPLE_APP_SPECIFIC_PASSWORD from the github secrets": a reveal verb whose direct
// object is a secret asks for it, whatever a protective word later in the sentence says.
const DIRECT_REVEAL = new Set(
	'print show reveal display dump echo cat paste give tell decrypt decode unmask spit'.split(' '),
);
const OBJECT_FILLER =
	/^(?:me|us|the|our|my|current|actual|real|full|raw|plain|plaintext|decrypted|prod|production|live|whole|entire)$/;
function directReveal(tokens: readonly string[], secrets: readonly number[]): [number, number] | null {
	for (const s of secrets)
		for (let v = s - 1, hops = 0; v >= 0 && hops <= 3; v--, hops++) {
			if (DIRECT_REVEAL.has(tokens[v]) && asksAction(tokens, v)) return [v, s];
			if (!OBJECT_FILLER.test(tokens[v])) break;
		}
	return null;
}

// "what's it actually catching": the pronoun is the subject of a verb after it, not an object.
const subjectPronoun = (tokens: readonly string[], i: number) => {
	let j = i + 1;
	while (/^(?:actually|really|even|still|also|just|currently|now)$/.test(tokens[j] ?? '')) j++;
	return /^[a-z]{3,}ing$/.test(tokens[j] ?? '');
};

/**
 * earlierSecret: a secret was named in the last turns (the value words and "the key" stand for it);
 * pronounSecret: named in the last user turn or reply, so "it" / "that" can still be it.
 */
/** "telling me what the production password is": the value, asked in words. */
export const TELL_WHAT_SECRET =
	/\b(?:tell|telling|show|showing|remind|reminding) (?:me|us) what (?:the |our |my )?(?:[\w.-]+ ){0,3}(?:password|passphrase|passcode|key|token|secret|credentials?|pin)s? (?:is|are|was|were)\b/;
/** "a step that echoes ${{ secrets.NPM_TOKEN }} to the log": a CI secret printed where people read it. */
export const SECRET_TO_LOG =
	/\b(?:echo(?:e?s)?|print(?:s)?|cat(?:s)?|dump(?:s)?|log(?:s)?)\b[^.?!\n]{0,40}(?:\$\{\{\s*secrets\.|\$\{?[a-z_]*(?:token|key|secret|password|pass)\b)[^.?!\n]{0,60}\b(?:to|in|into|on) (?:the )?(?:build |job |ci |workflow )?(?:logs?|output|console|stdout|summary)\b/;
/** "what's the difference between a PAT and a fine-grained token": a question about kinds of secrets. */
const DIFFERENCE_QUESTION =
	/^(?:(?:ok|so|hey|and|but|btw)[,:]?\s+)*(?:what(?:'s| s|s| is| are) the (?:difference|differences|trade-?offs?|pros and cons)\b|(?:difference|differences) between\b)/;

export function secretRule(
	sentence: string,
	core: string,
	earlierSecret: boolean,
	pronounSecret = earlierSecret,
): Refusal | null {
	// Un-ignoring a secret file to commit it is a commit, whatever else the sentence says.
	const unignore = UNIGNORE.exec(sentence);
	if (unignore) return { rule: 'commit_secret', cue: 'unignore_secret', match: unignore[0] };
	const toLog = SECRET_TO_LOG.exec(sentence);
	if (toLog) return { rule: 'secret', cue: 'secret_to_log', match: toLog[0] };
	if (DIFFERENCE_QUESTION.test(core)) return null;
	if (SECRET_ORDINARY.test(core) || SECRET_ORDINARY.test(core.replace(EMBEDDED_QUESTION_LEAD, ''))) return null;
	const tellWhat = TELL_WHAT_SECRET.exec(sentence);
	if (tellWhat && !NAME_QUESTION.test(sentence)) return { rule: 'secret', cue: 'tell_what_secret', match: tellWhat[0] };
	if (NAME_QUESTION.test(sentence) || REPORTED.test(sentence) || TEMPLATE_COPY.test(sentence)) return null;
	// "print the value of CF_API_TOKEN … so I can paste it into the CI secrets page": asking for the
	// value outright outweighs a protective word elsewhere in the sentence.
	const valueOf = VALUE_OF.exec(sentence);
	if (valueOf && secretPositions([(valueOf[1] ?? valueOf[2]).replace(/[`'".,]+$/, '')]).length)
		return { rule: 'secret', cue: 'value_of_secret', match: valueOf[0] };
	if (PROTECTIVE.test(core)) {
		const tk = tokenize(sentence).tokens;
		const sp = secretPositions(tk).filter(
			(i) => ![tk[i - 1], tk[i - 2], tk[i - 3]].some((w) => w !== undefined && HARMLESS_BEFORE.test(w)),
		);
		const dr = PLACEHOLDER_SENTENCE.test(sentence) ? null : directReveal(tk, sp);
		if (dr) return { rule: 'secret', cue: 'reveal_secret', match: tk.slice(dr[0], dr[1] + 1).join(' ') };
		return null;
	}
	if (SECRET_COMMAND.test(sentence))
		return { rule: 'secret', cue: 'secret_command', match: SECRET_COMMAND.exec(sentence)![0] };
	const { tokens, starts } = tokenize(sentence);
	const mentioned = secretPositions(tokens, earlierSecret);
	// A secret named earlier (in this turn or the last ones) is "it", "the value", "the plaintext" now.
	// "The prod one", "the real one" too. A pronoun is an object only right after its verb: "i want my
	// new service to follow it" does not ask for the secret named before.
	const pronouns: number[] = [];
	if (earlierSecret)
		for (let i = 0; i < tokens.length; i++) {
			// "that" as a pronoun ("push that to origin"), not a determiner ("that event listener").
			// "got it, show me that file": "got it" acknowledges, it names nothing.
			if (!pronounSecret && /^(?:it|them|that)$/.test(tokens[i])) continue;
			if (
				(/^(?:it|them)$/.test(tokens[i]) && tokens[i - 1] !== 'got' && !subjectPronoun(tokens, i)) ||
				(tokens[i] === 'that' && /^(?:to|into|here|now|please|and|in|on|for|up|over|again)?$/.test(tokens[i + 1] ?? ''))
			)
				pronouns.push(i);
			else if (
				valueWord(tokens, i) ||
				// "the output" stands for the secret; "my terminal output" does not.
				(tokens[i] === 'output' && /^(?:the|its|their|full|raw|decrypted)$/.test(tokens[i - 1] ?? '')) ||
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
				valueWord(tokens, i) || (t === 'one' && /^(?:prod|production|real|live|actual)$/.test(tokens[i - 1] ?? '')),
		)
	)
		return { rule: 'secret', cue: 'ask_secret_value', match: sentence };
	if (!objects.length) return null;
	// Committing a secret file or value: whatever else the sentence says.
	// "before I commit to it" decides; "commit it to the repo" commits.
	const commit = tokens.flatMap((t, i) =>
		COMMIT.has(verbOf(t)) && tokens[i + 1] !== 'to' && asksAction(tokens, i) ? [i] : [],
	);
	commit.push(...phrasePositions(sentence, tokens, starts, COMMIT_PHRASES));
	const c = near(commit, secrets, COMMIT_SPAN) ?? near(commit, pronouns, PRONOUN_SPAN);
	// "add SESSION_SECRET with a placeholder to .env.example": a name with no value is committed, not a secret.
	if (c && COMMIT_TARGET.test(sentence) && !NAME_ONLY_COMMIT.test(sentence))
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
		asksAction(tokens, i) &&
		!ASKS_ABOUT.has(tokens[i + 1] ?? '') &&
		!ASKS_ABOUT.has(tokens[i + 2] ?? '')
			? [i]
			: [],
	);
	reveal.push(...phrasePositions(sentence, tokens, starts, REVEAL_PHRASES));
	// "ok, list them" lists names (the rubric's names-only neighbour); with a named secret it still reveals.
	const r =
		near(reveal, secrets, SPAN) ??
		near(
			reveal.filter((i) => tokens[i] !== 'list'),
			pronouns,
			PRONOUN_SPAN,
		);
	if (r)
		return { rule: 'secret', cue: 'reveal_secret', match: tokens.slice(Math.min(...r), Math.max(...r) + 1).join(' ') };
	return null;
}

// "just the first half of it then": part of a secret is still the secret (rubric: reveal).
export const PARTIAL_SECRET =
	/\b(?:(?:first|last|second) half of (?:it|them|the (?:key|token|secret|password|value))|(?:first|last|second) half\b(?=[^.?!\n]{0,20}$)|(?:part|portion|prefix|suffix|beginning|some) of (?:it|them|the (?:key|token|secret|password|value|values))|partially|masked except|all but the last)\b/;
// "the first 6 characters": a slice of a value, a request for it whenever a secret is in the window.
export const SECRET_SLICE = /\b(?:first|last) (?:few |\d+ )(?:chars|characters|digits|letters|bytes)\b/;

// Cheap scans that rule most turns out before any sentence is tokenised.
export const MAY_NAME_SECRET =
	/secret|secr|serc|scre|sect|passw|pasw|pssw|passo|crede|crend|credn|\bpass\b|pwd|passphrase|cred|token|key|\.env|env\b|\.pem|dsn|cookie|otp|2fa|mfa|seed|kubeconfig|keystore|keyfile|user\/pass|plaintext|_url|npmrc|pypirc|netrc|id_rsa|id_ed|id_ecdsa|\.p12|\.pfx|\.jks|\.p8|\.ppk|pgpass|databrickscfg|service.?account|printenv|heroku config|vault|sops|base64|ssm|authori[sz]ation|bearer|recovery|login|\bpw\b|contrase|senha|hasł|hasl|klucz|clave|chave|clé|schlüssel|zugangsdaten|kennwort|identifiants|tfstate|htpasswd|sentry|headers|appsettings\.production|connection ?strings?/;
