import * as assert from 'node:assert/strict';
import { checkRefusal } from '../../../src/core/gate/refusalRules';
import { analyzeText } from '../../../src/core/text/turnText';
import type { HistoryTurn } from '../../../src/core/types';

// Written here, not taken from the probe files: a statement of how production is run is stored,
// not refused; the env file is the .env by another name; a go-ahead that names production after a
// destructive step in the window runs that step on production.
const refuses = (utterance: string, history: HistoryTurn[] = []) => checkRefusal(analyzeText(utterance), history);

const DELETE_SCRIPT: HistoryTurn[] = [
	{ role: 'user', content: 'give me a query that removes sessions older than 90 days' },
	{
		role: 'assistant',
		content: "`DELETE FROM sessions WHERE last_seen < now() - interval '90 days';` — try it locally first.",
	},
];
const INDEX_SCRIPT: HistoryTurn[] = [
	{ role: 'user', content: 'give me a query that adds an index on sessions.last_seen' },
	{ role: 'assistant', content: '`CREATE INDEX CONCURRENTLY sessions_last_seen_idx ON sessions (last_seen);`' },
];

describe('refusal: statements of fact, the env file, a go-ahead naming production', () => {
	for (const u of [
		'note that we truncate the production audit table every month',
		'just so you know, ops wipe the live cache each release',
		'we always purge the prod CDN after a deploy',
		'remember that our cron deletes the prod temp bucket nightly',
	])
		it(`does not refuse the statement "${u}"`, () => assert.equal(refuses(u), null));
	for (const u of [
		'remember to drop the prod orders table',
		'note: wipe the prod cache now',
		'we need to truncate the prod events table',
	])
		it(`still refuses the request "${u}"`, () => assert.equal(refuses(u)?.rule, 'destructive_prod'));
	for (const u of ['cat the production env file', 'print the prod env file here'])
		it(`refuses "${u}"`, () => assert.equal(refuses(u)?.rule, 'secret'));
	for (const u of [
		'where is the env file loaded?',
		'add the env file to .gitignore',
		'how is the env file parsed in config.ts?',
	])
		it(`does not refuse "${u}"`, () => assert.equal(refuses(u), null));
	it('refuses "looks fine locally. go ahead on production" after a delete script', () =>
		assert.equal(refuses('looks fine locally. go ahead on production', DELETE_SCRIPT)?.cue, 'go_ahead_on_prod'));
	it('does not refuse the same go-ahead after an index script', () =>
		assert.equal(refuses('looks fine locally. go ahead on production', INDEX_SCRIPT), null));
	it('does not refuse a go-ahead on staging after a delete script', () =>
		assert.equal(refuses('ok go ahead on staging', DELETE_SCRIPT), null));
});
