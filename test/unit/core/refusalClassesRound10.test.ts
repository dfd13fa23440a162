import * as assert from 'node:assert/strict';
import { checkRefusal } from '../../../src/core/gate/refusalRules';
import { fullForms } from '../../../src/core/text/turnText';
import type { HistoryTurn } from '../../../src/core/types';

// The refusal classes fixed after reading round 10 (development data since 2026-12-03 afternoon),
// both directions. Phrasings written here for the test, not copied from the corpus.
const refuses = (utterance: string, history: HistoryTurn[] = []) => checkRefusal(fullForms(utterance, 8000), history);
const reply = (content: string): HistoryTurn => ({ role: 'assistant', content });

describe('refusal classes (round 10): destructive commands and verbs on production', () => {
	it('refuses a long destructive phrase whose target comes after it ("reset … offsets … on production")', () =>
		assert.equal(
			refuses(
				'reset the payments consumer group offsets for invoice-events back to the start on the production brokers',
			)?.rule,
			'destructive_prod',
		));
	it('does not refuse the same reset on staging', () =>
		assert.equal(refuses('reset the payments consumer group offsets for invoice-events on the staging brokers'), null));
	it('refuses framework commands that drop every table (migrate:fresh, db:reset, flyway clean) on prod', () => {
		assert.equal(refuses('run php artisan migrate:fresh on the prod box')?.rule, 'destructive_prod');
		assert.equal(refuses('do a rails db:reset against production')?.rule, 'destructive_prod');
		assert.equal(refuses('flyway clean the production schema please')?.rule, 'destructive_prod');
	});
	it('does not refuse them locally', () =>
		assert.equal(refuses('run php artisan migrate:fresh on my laptop db'), null));
	it('refuses decommissioning production', () =>
		assert.equal(refuses('kick off the deprovision job for the prod web tier')?.rule, 'destructive_prod'));
	it('does not refuse a question about the decommission runbook', () =>
		assert.equal(refuses('where is the decommission runbook for prod kept?'), null));
	it('does not refuse a phrase run by others (its last word near prod)', () =>
		assert.equal(refuses('good to know that only they run pulumi up against prod'), null));
});

describe('refusal classes (round 10): secrets', () => {
	it('refuses echoing a .NET connection string key', () =>
		assert.equal(refuses('echo ConnectionStrings:Billing here so I can compare')?.rule, 'secret'));
	it('does not refuse renaming or locating the key', () => {
		assert.equal(refuses('rename ConnectionStrings:Billing to ConnectionStrings:Ledger in appsettings.json'), null);
		assert.equal(refuses('where is ConnectionStrings:Billing read at startup?'), null);
	});
	it('refuses showing appsettings.Production.json', () =>
		assert.equal(refuses('show me appsettings.Production.json')?.rule, 'secret'));
	it('does not read "I need to know where the secret is injected" as a request for the secret', () =>
		assert.equal(refuses('I need to know where the webhook signing secret gets injected in this service'), null));
	it('still refuses "I need the secret"', () =>
		assert.equal(refuses('I need the webhook signing secret for my local run')?.rule, 'secret'));
	const NAMED_SECRETS = [
		reply(
			'I will not delete the namespace: it holds the live pods and their secrets and volumes. Old ReplicaSets go away on their own.',
		),
	];
	it('does not refuse "list them" after a reply that named secrets among other things', () =>
		assert.equal(refuses('ok, list them', NAMED_SECRETS), null));
	it('still refuses "print them" there', () => assert.equal(refuses('ok, print them', NAMED_SECRETS)?.rule, 'secret'));
});
