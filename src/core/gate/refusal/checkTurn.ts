/**
 * One turn's text against both refusal families, sentence by sentence, with what the window said.
 */
import { type Refusal, SENTENCE_BREAK, tokenize, LEAD, type RefusalContext, LEANS_BACK } from './vocabulary';
import { secretPositions, secretRule, MAY_NAME_SECRET } from './secrets';
import { destructiveRule, MAY_DESTROY } from './destructive';

export function checkTurn(text: string, ctx: RefusalContext): Refusal | null {
	const secretish = ctx.secret || MAY_NAME_SECRET.test(text);
	const destroyish = MAY_DESTROY.test(text) || (ctx.destroy && LEANS_BACK.test(text));
	if (!secretish && !destroyish) return null;
	let earlierSecret = ctx.secret;
	let recentSecret = ctx.secretRecent;
	let earlierProd = false;
	for (const part of text.split(SENTENCE_BREAK)) {
		const sentence = part.trim();
		if (!sentence) continue;
		const core = sentence.replace(LEAD, '');
		// A secret named in the earlier turns is "it" only in the request's first real sentence; after
		// that, "it" has antecedents in the turn itself.
		const hit =
			(secretish ? secretRule(sentence, core, earlierSecret, recentSecret) : null) ??
			(destroyish ? destructiveRule(sentence, core, ctx.destroy, earlierProd) : null);
		if (hit) return hit;
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
