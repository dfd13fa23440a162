import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';

// Rubric: corrections and statements of project facts go to research; the profile holds facts about
// the user. A learned write weight on the word "correction" must not send a project fact there.
const writes = (utterance: string) => decideTurn({ utterance, history: [] }).write;

describe('what a correction or statement writes', () => {
	it('a correction of a project fact writes research, not the profile', () => {
		assert.deepEqual(writes('Correction: staging runs on Kubernetes 1.29, not 1.27.'), ['research']);
		assert.deepEqual(writes('Correction: the cache TTL is 600 seconds, not 60.'), ['research']);
	});
	it('the user speaking of themselves may still write the profile', () => {
		assert.ok(writes('my favourite editor is helix').includes('profile'));
		assert.ok(writes('Correction: I moved to Lisbon, not Porto.').includes('profile'));
	});
});
