// Which memories a chat "forget that …" names (src/chat/forgetMatch.ts): never one below the floor.
import * as assert from 'node:assert/strict';
import { chooseForget, contentWords, overlap, type ForgetCandidate } from '../../src/chat/forgetMatch';

const c = (id: string, text: string): ForgetCandidate => ({ tier: 'research', workspaceId: 'w', id, text });
const FLOOR = 0.75;

describe('forgetMatch', () => {
	it('content words drop stop words and a plural s', () => {
		assert.deepEqual(contentWords('Forget that the LaunchDarkly flags are in my config'), [
			'forget',
			'launchdarkly',
			'flag',
			'config',
		]);
	});

	it('overlap is the share of the request words the memory holds', () => {
		assert.equal(overlap('the staging port', 'the staging DB is on port 5433'), 1);
		assert.equal(overlap('the staging DB port 5432', 'the staging DB is on port 5433'), 0.75);
		assert.equal(overlap('', 'anything'), 0);
	});

	it('one match above the floor is forgotten; one sharing a word is not', () => {
		const got = chooseForget(
			'the staging DB is on port 5433',
			[c('a', 'the staging DB is on port 5433'), c('b', 'the prod DB is on port 6543')],
			FLOOR,
		);
		assert.equal(got.kind, 'one');
		assert.equal(got.kind === 'one' && got.target.id, 'a');
	});

	it('the only candidate holding every word wins over partial ones', () => {
		const got = chooseForget(
			'staging DB port',
			[c('a', 'staging DB password rotates, port 5433'), c('b', 'staging DB port is 5433')],
			0.5,
		);
		assert.equal(got.kind, 'several', 'both hold every word: ask');
		const partial = chooseForget(
			'staging DB port 5433',
			[c('a', 'staging DB port 5433'), c('b', 'staging DB on 5433')],
			0.5,
		);
		assert.equal(partial.kind === 'one' && partial.target.id, 'a');
	});

	it('several equally good matches are listed, best first, at most five', () => {
		const many = Array.from({ length: 7 }, (_, i) => c(`m${i}`, `the staging DB note ${i}`));
		const got = chooseForget('the staging DB', many, FLOOR);
		assert.equal(got.kind, 'several');
		assert.equal(got.kind === 'several' && got.candidates.length, 5);
	});

	it('nothing at the floor: nothing forgotten, the nearest named', () => {
		const got = chooseForget('the billing cron runs at 2am', [c('a', 'the staging DB is on port 5433')], FLOOR);
		assert.equal(got.kind, 'none');
		assert.equal(got.kind === 'none' && got.nearest?.id, 'a');
		assert.deepEqual(chooseForget('anything', [], FLOOR), { kind: 'none', nearest: null });
	});
});
