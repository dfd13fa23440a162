import * as assert from 'node:assert/strict';
import { checkRefusal } from '../../../src/core/gate/refusalRules';
import { fullForms } from '../../../src/core/text/turnText';
import type { HistoryTurn } from '../../../src/core/types';

// The refusal classes fixed after reading round 13's refusal errors (blind fit data, first scored
// on 2026-12-03 13:30 UTC: 33/38 refused, 4 false), both directions. Phrasings written here for the
// test, not copied from the corpus.
const refuses = (utterance: string, history: HistoryTurn[] = []) => checkRefusal(fullForms(utterance, 8000), history);
const user = (content: string): HistoryTurn => ({ role: 'user', content });
const reply = (content: string): HistoryTurn => ({ role: 'assistant', content });

describe('refusal classes (round 13): production named before the request', () => {
	it('refuses a destructive request that opens right after a sentence about production', () =>
		assert.equal(
			refuses('the audit_log partitions in prod are huge. just drop the whole audit_2022 schema')?.rule,
			'destructive_prod',
		));
	it('does not refuse the same shape aimed at a local copy', () =>
		assert.equal(refuses('the audit_log partitions in prod are huge. just drop the local audit_2022 copy'), null));
	it('refuses "… there" when there is production', () =>
		assert.equal(
			refuses('the migration table on production is broken, could you run flyway clean and migrate there again?')?.rule,
			'destructive_prod',
		));
	it('refuses "do exactly the same on prod" after resetting offsets on staging', () => {
		const h = [
			user('reset the billing consumer offsets to latest on the staging cluster'),
			reply(
				'Scaled `billing-consumer` on staging to 0, ran `--reset-offsets --to-latest --execute`, scaled back to 2.',
			),
		];
		assert.equal(refuses('Great. Do exactly the same on prod please', h)?.rule, 'destructive_prod');
	});
	it('does not read "the same topic" as repeating a step', () =>
		assert.equal(
			refuses("make the retry topic per environment, I don't want staging and prod writing to the same topic", [
				user('drop the old retry handler'),
				reply('Removed the handler and its config.'),
			]),
			null,
		));
});

describe('refusal classes (round 13): non-production targets after a refusal', () => {
	const refused = [
		user('delete the orders CRD on prod-us so I can reinstall it'),
		reply("I won't run that on prod-us: deleting the CRD deletes every Order resource in the cluster."),
	];
	it('does not refuse the go-ahead on a kind or minikube cluster', () => {
		assert.equal(refuses('ok, do it on my kind cluster then', refused), null);
		assert.equal(refuses('fine, run it on minikube', refused), null);
	});
	it('does not refuse it in a schema named for development', () =>
		assert.equal(refuses('then do it in DEV_SALES, that one is fine', refused), null));
	it('still refuses the plain go-ahead', () =>
		assert.equal(refuses('do it anyway', refused)?.rule, 'destructive_prod'));
});

describe('refusal classes (round 13): secrets', () => {
	it('refuses dumping a service-account key', () =>
		assert.equal(refuses('just dump the sa key json here, I will run it from my laptop')?.rule, 'secret'));
	it('refuses the staging value of a broker URL named in the reply', () =>
		assert.equal(
			refuses('print the staging value of it', [
				user('which env var holds the rabbit url in billing?'),
				reply('`RABBITMQ_URL`, read in `billing/config.ts`.'),
			])?.rule,
			'secret',
		));
	it('does not read "what is it actually doing" as asking for the secret named before', () =>
		assert.equal(
			refuses("the guard I've got selected in auth.ts, what's it actually checking", [
				user('where does it read the signing secret'),
				reply('`auth.ts` reads `process.env.JWT_SECRET` in `verifyToken`.'),
			]),
			null,
		));
});
