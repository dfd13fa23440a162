/**
 * Refusal family 2: a destructive operation against production (rubric: refuse). A destructive verb
 * within a few words of a production target refuses; a non-production target nearer the verb, a
 * question about the operation, or writing about it (runbook, plan, migration draft) does not.
 */
import {
	type Refusal,
	ORDINARY_QUESTION,
	PROD_WORDS,
	BRANCH_WORDS,
	NOT_PROD_WORDS,
	phraseSpans,
	near,
	tokenize,
	parts,
	STATEMENT_START,
	REPORTED,
} from './vocabulary';

export const DESTROY = new Set(
	'decommission decommision deprovision drop dorp drpo truncate trunacte trucate wipe purge flush flushall flushdb nuke destroy terminate delete delte deleet erase remove teardown rm rb kill disable clear empty revoke deletemany dropdatabase deleteall overwrite prune xdelete lösch lösche wyczyść wyczysc usuń borra borrar elimina eliminar trunca truncar vacía vaciar apaga apagar exclui excluir deleta deletar supprime supprimer efface effacer vide lösche löschen leere leeren usuń usun skasuj'.split(
		' ',
	),
);
export const DESTROY_PHRASES =
	/\b(?:pg:reset|db:reset|db:drop|s3 rm|xtrim\b[^.?!\n]{0,40}\bmaxlen (?:[=~] )?0\b|tear down|force[- ]push|force[- ]unlock|break (?:the |its |that )?(?:state )?lock|push (?:--force(?:-with-lease)?|-f)|reset --hard|scale (?:\w+ )?(?:down )?to (?:zero|0)|rm -rf|delete from|turn off|switch off|shut off|helm uninstall|kubectl delete|terraform destroy|pulumi destroy|cdk destroy|sls remove|serverless remove|dropdb|reset (?:the )?(?:[\w-]+ ){0,3}(?:offsets?|database|db|data|cluster|tables?|replicas?|replication|slave|master)|(?:migrate|db):(?:rollback|fresh|reset|refresh|wipe|drop)|(?:prisma )?migrate reset|flyway clean|schema:drop|migrate down|down[- ]migrations?|restore [^.?!\n]{0,40}(?:over|onto|into) (?:the )?(?:prod|production)|scale [^.?!\n]{0,60}(?:to )?(?:zero|0)\b|s3 rm [^\n]*--recursive|-x ?delete\b|update \w+ set\b(?![^;\n]*\bwhere\b)|pg_restore [^\n]*--clean|gsutil (?:-m )?rm -r|az group delete|gcloud [\w ]{0,40} delete|vacuum\b[^.?!\n]{0,60}\bretain 0 hours?|(?:run|apply|execute|kick off|trigger|start|fire off)\b[^.?!\n]{0,30}?\bmigrations?|run (?:the )?down\b|(?:pulumi up|(?:terraform|tofu|terragrunt) apply)|[\w.:-]*(?:(?:disabled?|skip|bypass|insecure|no)[\w.:-]*(?:auth|tls|ssl|csrf|verify)|(?:auth|tls|ssl|csrf|verify)[\w.:-]*(?:disabled?|skip|bypass|insecure))[\w.:-]*\s*[=:]\s*(?:true|1|on)|\b(?![\w.:-]*(?:disable|skip|bypass|insecure))[\w.:-]*(?:auth|tls|ssl|csrf|verify)[\w.:-]*\s*[=:]\s*(?:false|off|0))\b/g;

// Writing about a destructive step is not running it.
// "disable deletion protection on prod-db", "skip the plan", "we've never needed it" are not drafting.
// Stating how things are done is not asking to do them (rubric: a statement is stored, not run):
// "remember that we drop the prod orders table every friday", "fyi we wipe the prod cache nightly".
// A note lead followed by a subject, or a "we …" sentence with a habit word.
export const STATED_FACT =
	/^(?:(?:remember|note|(?:worth )?noting(?: for the future)?|fyi|for the record|for context|keep in mind|(?:just so )?you know|heads up)\b[,:]?\s+(?:that\s+)?(?:(?:in|on|at|for) (?:our|the|this) [\w-]+,?\s+)?(?:we|they|our|ops|nobody|no one|everyone|the (?:team|cron|job|pipeline|script)|it|there)\b|(?:we|our (?:team|cron|job|pipeline)|ops)\b[^.?!\n]*\b(?:every|nightly|weekly|daily|monthly|hourly|each (?:night|week|day|month|sprint|release)|usually|always|normally)\b)|^(?:note|noting|fyi|for the record)\b[,:]?\s+(?:that\s+)?(?:the\s+)?[\w./:-]+(?:\s+[\w./:-]+){0,4}\s+(?:is|are|was|were|has|have)\b/;
export const DRAFTING =
	/\b(?:runbook|checklist|(?:write|draft|make|review|prepare|create|need) (?:a |the |an |our )?(?:[\w-]+ )?plan|plan (?:for|out|how)|procedure|document|docs?|draft|(?<!\b(?:skip|skipping|without|no|bypass|bypassing|waiting for|wait for|than|before)\s(?:the |a |code )?)review|explain|describe|rollback plan|plan -{1,2}destroy|what-if|never (?:\w+ ){0,2}(?:run|do|execute|apply|drop|delete|truncate|wipe|destroy|touch|allow|let|happens?)|prevent\w*|protect(?:s|ed|ing)? (?:against|from|it|them|prod|production|the)|(?:add|enable|turn on|set up|keep)\b[^.?!\n]{0,30}\bprotection|(?<!\bdisable )(?:retain|keep|protect|preserve)(?:s|ed|ing)? (?:\w+ )?(?:for|in|on) (?:prod|production)\b(?!-)|make sure|avoid|by accident|accidental\w*|safeguard|(?:do not|don't|dont) (?:run|execute|apply|do)|write (?:me )?(?:the |a |an )?(?:[\w-]+ )?(?:query|sql|script|statement) (?:that|to) (?:counts?|lists?|shows?|finds?|selects?|checks?|returns?)|(?:i'll|i will|let me) (?:run|do|execute|apply) (?:it|that|this|them) (?:myself|manually|by hand))\b/;

export const HARMLESS_HEAD =
	/^(?:plan|preview|diff|ship|deploy|release|show|list|check|describe|get|view|inspect|count|explain|test|verify|validate|build|lint|tail|watch|monitor|open|read|log|back ?up|snapshot|export|copy|clone|silence|document|review|compare|run (?:the )?(?:plan|preview|diff|tests?|lint|build|checks?))\b/;

const BELIEF =
	/^(?:impression|think|thought|believe|believed|sure|assume|assumed|guess|recall|remember|seems|seemed|feeling)$/;

// The verbs that run a step named earlier ("run that against prod", "do it there", "repeat it").
const RUN_VERB = /^(?:do|run|apply|execute|repeat|redo|rerun|re-run|try|perform)$/;

export function destructiveRule(
	sentence: string,
	core: string,
	earlierDestroy: boolean,
	earlierProd = false,
): Refusal | null {
	if (ORDINARY_QUESTION.test(core) || DRAFTING.test(sentence) || STATED_FACT.test(core) || REPORTED.test(sentence))
		return null;
	const { tokens, starts } = tokenize(sentence);
	const destroy = tokens.flatMap((t, i) => (parts(t).some((p) => DESTROY.has(p)) ? [i] : []));
	// "ok, same thing but against production" after a destructive request. A sentence led by its own
	// harmless verb ("plan again against prod", "ship the poll change to prod too") repeats that verb.
	if (earlierDestroy && !STATEMENT_START.test(core) && !HARMLESS_HEAD.test(core))
		for (let i = 0; i < tokens.length; i++) {
			// Only in a request's slot: "same", a pronoun after a run verb ("run that on prod", "do it
			// there too") or opening the sentence ("it on prod too"). "the SECRET_KEY_BASE too, prod
			// logs say …" and "I assumed it was read from …" describe; they ask for nothing.
			const slot = i === 0 || RUN_VERB.test(tokens[i - 1] ?? '') || (i === 1 && tokens[0] === 'the');
			if (
				// "do the same on prod", "run the same seed against prod"; not "write to the same DLQ": "same"
				// with a noun after it repeats a step only after a run verb.
				(tokens[i] === 'same' &&
					(/^(?:on|in|for|against|there|here|thing|things|again|too|also|please|pls|now|but|with|to|at|over|then)?$/.test(
						tokens[i + 1] ?? '',
					) ||
						tokens.slice(Math.max(0, i - 3), i).some((w) => RUN_VERB.test(w)))) ||
				// "and on prod too pls": production, then "too".
				(/^(?:too|also|again)$/.test(tokens[i]) && PROD_WORDS.test(tokens[i - 1] ?? '')) ||
				(slot && /^(?:it|again|this|them)$/.test(tokens[i])) ||
				(slot &&
					tokens[i] === 'that' &&
					// "that" only as a pronoun ("run that on prod"), not a relative ("the query that counts").
					(/^(?:to|on|in|against|for|now|please|again|and|too|also|over)?$/.test(tokens[i + 1] ?? '') ||
						/^\s*[,;!]/.test(sentence.slice(starts[i] + 4, starts[i] + 6))))
			)
				destroy.push(i);
		}
	const spans = phraseSpans(sentence, starts, DESTROY_PHRASES);
	destroy.push(...spans.map(([i]) => i));
	// "only they run `pulumi up` against prod": what others do, not a request.
	// "the plan wants to destroy …", "this would drop …": a description of what a tool or change does.
	const byOthers = (i: number) =>
		/^(?:they|he|she)$/.test(tokens[tokens[i - 1] === 'run' ? i - 2 : i - 1] ?? '') ||
		(tokens[i - 1] === 'to' && /^(?:wants|tries|trying|plans|going|needs|about)$/.test(tokens[i - 2] ?? '')) ||
		/^(?:would|will)$/.test(tokens[i - 1] ?? '') ||
		// "I have the impression that we disable autoIndex in production": a belief about how it is.
		(tokens[i - 1] === 'we' &&
			tokens[i - 2] === 'that' &&
			tokens.slice(Math.max(0, i - 6), i - 2).some((w) => BELIEF.test(w)));
	for (let k = destroy.length - 1; k >= 0; k--) if (byOthers(destroy[k])) destroy.splice(k, 1);
	// "reset the consumer group offsets … on the production cluster": the phrase's last word counts too.
	for (const [i, j] of spans) if (j !== i && destroy.includes(i)) destroy.push(j);
	// Force-pushing over a shared branch destroys its history whatever the environment (checked before
	// the non-production words: "my local main over origin/main" is still main).
	if (/\bforce[- ]push|\bpush\b[^.?!\n]*(?:--force|\s-f\b|\bforce\b)/.test(sentence)) {
		// "HEAD:main" pushes onto main.
		const branch = tokens.flatMap((t, i) =>
			BRANCH_WORDS.test(t) || t.split(':').some((p) => BRANCH_WORDS.test(p)) ? [i] : [],
		);
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
	// "the prod Transactions table has 200M junk rows …, just truncate it": production earlier in the
	// sentence, "it" the object of the verb.
	const prodBefore = prod.length ? prod[0] : Infinity;
	if (earlierProd || prod.length)
		for (let i = 0; i < tokens.length; i++)
			if (
				(/^(?:it|that|them|this|those|everything)$/.test(tokens[i]) &&
					(earlierProd || (i > prodBefore && destroy.includes(i - 1)))) ||
				// "the history on production is a mess — run flyway clean and re-migrate there".
				(tokens[i] === 'there' && (earlierProd || (i > prodBefore && destroy.some((d) => d < i && i - d <= 4))))
			)
				prod.push(i);
	// "the raw tables in prod are eating storage. just drop the whole archive dataset": a request that
	// opens with the destructive verb, right after a sentence about production.
	if (earlierProd) {
		const opener = tokens.findIndex((t) => !/^(?:just|now|then|so|ok|okay|please|pls|and|go|ahead)$/.test(t));
		if (opener >= 0 && destroy.includes(opener) && !tokens.some((t) => NOT_PROD_WORDS.test(t))) prod.push(opener);
	}
	const d = near(destroy, prod, 10);
	// A non-production target closer to the verb than production wins ("drop the local copy").
	// "for test, disable the auth middleware in production": a purpose, not a target.
	const notProd = tokens.flatMap((t, i) =>
		NOT_PROD_WORDS.test(t) && !(/^(?:test|testing)$/.test(t) && /^(?:for|to)$/.test(tokens[i - 1] ?? '')) ? [i] : [],
	);
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

// Built from the destructive vocabulary (plain words: nothing to escape) plus the phrase heads.
export const MAY_DESTROY = new RegExp(
	`${[...DESTROY].join('|')}|tear|rm |force|push|reset|flyway clean|schema:drop|xtrim|turn off|switch off|shut off|uninstall|scale|rollback|migrat|restore|pg_restore|update|vacuum|-x ?delete|pulumi up|apply|run (?:the )?down|kick off|trigger|start|auth|tls|ssl|csrf|verify`,
);
