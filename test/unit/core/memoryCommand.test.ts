// Explicit memory commands in chat (#19): "remember that …" / "forget that …" — and the turns that only look like one.
import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import { recogniseMemoryCommand } from '../../../src/core/intent/memoryCommand';

describe('recogniseMemoryCommand', () => {
	const remember: [string, string, string][] = [
		['remember that the staging DB is on port 5433', 'the staging DB is on port 5433', 'research'],
		['Please remember: invoices are rounded half-even.', 'invoices are rounded half-even.', 'research'],
		[
			'ok, keep in mind that the QA cluster is read-only on Fridays',
			'the QA cluster is read-only on Fridays',
			'research',
		],
		["Don't forget that feature flags live in LaunchDarkly", 'feature flags live in LaunchDarkly', 'research'],
		[
			'Also, remember that I prefer pnpm over npm for everything local',
			'I prefer pnpm over npm for everything local',
			'profile',
		],
		['Please remember for always: my timezone is CET', 'my timezone is CET', 'profile'],
		['remember this: always use tabs in Go files', 'always use tabs in Go files', 'instruction'],
		['remember to always run lint before committing', 'always run lint before committing', 'instruction'],
		['make a note that you should answer in bullet points', 'you should answer in bullet points', 'instruction'],
		['remember that time zones are stored as IANA names', 'time zones are stored as IANA names', 'research'],
	];
	for (const [utterance, text, target] of remember)
		it(`remember: ${utterance}`, () => {
			const c = recogniseMemoryCommand(utterance);
			assert.ok(c && c.action === 'remember', JSON.stringify(c));
			assert.equal(c.text, text);
			assert.equal(c.target, target);
		});

	const forget: [string, string][] = [
		['forget that the staging DB is on port 5433', 'the staging DB is on port 5433'],
		['Please forget about the LaunchDarkly flags', 'the LaunchDarkly flags'],
		['forget what I said about the QA cluster.', 'the QA cluster'],
		['stop remembering that I prefer pnpm', 'I prefer pnpm'],
		['delete the memory about the staging port', 'the staging port'],
		['drop the memory that invoices round half-even', 'invoices round half-even'],
		["don't remember that my phone number is 555-0100", 'my phone number is 555-0100'],
		['forget my home address', 'my home address'],
		['forget that the time zone of the cron is UTC', 'the time zone of the cron is UTC'],
	];
	for (const [utterance, query] of forget)
		it(`forget: ${utterance}`, () => {
			const c = recogniseMemoryCommand(utterance);
			assert.ok(c && c.action === 'forget', JSON.stringify(c));
			assert.equal(c.query, query);
		});

	const neither = [
		'do you remember what port the staging DB is on',
		'Do you remember the problem with skew in the customers join? What did we do for it?',
		'remember when we moved the cache to Redis',
		'remember the provider-aws upgrade mess? same thing?',
		'I forgot to add the migration, can you write it',
		'I forgot that the DB was on 5433',
		'forget it, let’s do the retry queue instead',
		'Forget it. One thing though: you said the registry fallback is under HKLM.',
		'forget that, let’s use Redis',
		'forget that idea, we will go with option B',
		'forget about it',
		'forget this',
		'remember to call retry() before closing the socket, or does close() do it?',
		'how do I remember to call retry() before the reconnect in client.ts',
		'remember to call retry() before closing the socket',
		'remember that?',
		'Before I forget — what did we conclude last time about gzip?',
		'always pnpm, not npm. remember that',
		'I remember that the old parser had the same bug',
		'remember that',
		"don't remember this",
		'forget everything',
		'remember that time we broke prod with a migration',
		'remember that incident in May with the double charges',
		'forget about performance for now',
		'forget about the refactor, just fix the bug',
	];
	for (const utterance of neither)
		it(`not a command: ${utterance}`, () => assert.equal(recogniseMemoryCommand(utterance), null));
});

describe('decideTurn with a memory command', () => {
	it('remember: no retrieval, path direct, writes research only, says it was an explicit command', () => {
		const r = decideTurn({ history: [], utterance: 'remember that the staging DB is on port 5433' });
		assert.deepEqual(r.tiers, []);
		assert.equal(r.retrieve, false);
		assert.equal(r.path, 'direct');
		assert.deepEqual(r.write, ['research']);
		assert.equal(r.route, 'memory_remember');
		assert.deepEqual(r.memory_command, {
			action: 'remember',
			text: 'the staging DB is on port 5433',
			target: 'research',
			rule: 'remember_that',
		});
		assert.deepEqual(r.trace.decision.memory_command, r.memory_command);
		const step = r.trace.steps.find((s) => s.kind === 'gate' && s.gate === 'memory_command');
		assert.ok(step && step.kind === 'gate' && step.value === 'remember');
	});

	it('a personal preference goes to the profile; an instruction too', () => {
		assert.deepEqual(decideTurn({ history: [], utterance: 'remember that I prefer tabs' }).write, ['profile']);
		assert.deepEqual(decideTurn({ history: [], utterance: 'remember to always answer in English' }).write, ['profile']);
	});

	it('forget: no retrieval, writes nothing, carries the query', () => {
		const r = decideTurn({ history: [], utterance: 'forget that the staging DB is on port 5433' });
		assert.deepEqual(r.tiers, []);
		assert.deepEqual(r.write, []);
		assert.equal(r.path, 'direct');
		assert.equal(r.route, 'memory_forget');
		assert.deepEqual(r.memory_command, {
			action: 'forget',
			query: 'the staging DB is on port 5433',
			rule: 'forget_that',
		});
		// The rubric's nearest trigger for retracting something stored.
		assert.equal(r.trigger, 'correction');
		assert.equal(r.trace.decision.trigger, 'correction');
	});

	it('a refusal comes first: a secret request wrapped in "remember that" is still refused', () => {
		const r = decideTurn({
			history: [],
			utterance: "remember that: show me what's in .env.production",
		});
		assert.equal(r.path, 'refuse');
		assert.deepEqual(r.write, []);
		assert.deepEqual(r.tiers, []);
		assert.equal(r.memory_command, undefined);
	});

	it('Restricted Mode: a remember writes nothing', () => {
		const r = decideTurn({ history: [], utterance: 'remember that I prefer tabs', context: { restricted: true } });
		assert.deepEqual(r.write, []);
		assert.equal(r.memory_command?.action, 'remember');
	});

	it('a recall question is not a command and has no memory_command field', () => {
		const r = decideTurn({ history: [], utterance: 'do you remember which port the staging DB is on?' });
		assert.equal('memory_command' in r, false);
		assert.equal('memory_command' in r.trace.decision, false);
		assert.equal(r.trigger, 'recall');
	});
});
