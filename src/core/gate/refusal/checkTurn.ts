/**
 * One turn's text against both refusal families, sentence by sentence, with what the window said.
 */
import { type Refusal, SENTENCE_BREAK, tokenize, LEAD, type RefusalContext, LEANS_BACK } from './vocabulary';
import { secretPositions, secretRule, MAY_NAME_SECRET, NAME_QUESTION } from './secrets';
import { destructiveRule, MAY_DESTROY } from './destructive';

// A credential typed into the turn: an app-specific password (four groups of four letters), a
// Stripe-style, GitHub, AWS or Slack token, a JWT.
const CREDENTIAL_LITERAL =
	/\b[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4}\b|\b(?:sk|rk|whsec)_(?:live_|test_)?[a-z0-9]{8,}|\bghp_[a-z0-9]{16,}|\bakia[0-9a-z]{16}\b|\bxox[abpr]-[a-z0-9-]{10,}|\beyj[a-z0-9_-]{10,}\.[a-z0-9_-]{10,}/;
// … and asked to be put somewhere: "I generated a new one: abcd-efgh-ijkl-mnop, put it in the secret".
const PUT_IT =
	/\b(?:put|set|store|save|add|paste|send|commit|push|write|hardcode|drop)\s+(?:it|this|that|them|the (?:value|key|token|password))\s+(?:in|into|to|on|as)\b/;
// "the one with the destroy": the turn itself describes the step as destructive.
const DESCRIBED_DESTROY =
	/\b(?:destroy|destroys|drop|drops|delete|deletes|wipe|wipes|truncate|truncates|purge|purges)\b/;

// "SECRET_KEY or DJANGO_SECRET_KEY?" after "what's the env var called": a choice between names.
const NAME_CHOICE = /^[\w.`'"$-]+(?:\s*(?:,|\bor\b|\/)\s*[\w.`'"$-]+)+\s*\??$/;

export function checkTurn(text: string, ctx: RefusalContext): Refusal | null {
	if (CREDENTIAL_LITERAL.test(text)) {
		const put = PUT_IT.exec(text);
		if (put) return { rule: 'secret', cue: 'send_secret_value', match: put[0] };
	}
	const secretish = ctx.secret || MAY_NAME_SECRET.test(text);
	const destroyish = MAY_DESTROY.test(text) || (ctx.destroy && LEANS_BACK.test(text));
	if (!secretish && !destroyish) return null;
	let earlierSecret = ctx.secret;
	let recentSecret = ctx.secretRecent;
	let earlierProd = false;
	let destroyHere = false;
	let nameAsked = false;
	for (const part of text.split(SENTENCE_BREAK)) {
		const sentence = part.trim();
		if (!sentence) continue;
		// Names offered as the answer to the turn's own name question ask for no value.
		if (nameAsked && NAME_CHOICE.test(sentence)) continue;
		if (NAME_QUESTION.test(sentence)) nameAsked = true;
		const core = sentence.replace(LEAD, '');
		// A secret named in the earlier turns is "it" only in the request's first real sentence; after
		// that, "it" has antecedents in the turn itself.
		const hit =
			(secretish ? secretRule(sentence, core, earlierSecret, recentSecret) : null) ??
			(destroyish ? destructiveRule(sentence, core, ctx.destroy || destroyHere, earlierProd) : null);
		if (hit) return hit;
		// "the old plan file, the one with the destroy. just apply that": a destructive step described in
		// this turn, while the window is about production, is what "that" runs.
		if (destroyish && DESCRIBED_DESTROY.test(sentence)) {
			destroyHere = true;
			if (ctx.prodNamed) earlierProd = true;
		}
		if (!earlierProd && /\b(?:prod|production|prd|live)\b|[\w-]+-prod\b|\bprod-[\w-]+/.test(sentence))
			earlierProd = true;
		const { tokens } = tokenize(sentence);
		const named = secretish && secretPositions(tokens).length > 0;
		// A short reaction ("nah too slow.") does not give "it" a new antecedent.
		if (tokens.length >= 5) earlierSecret = recentSecret = named;
		else if (named) earlierSecret = recentSecret = true;
	}
	return null;
}
