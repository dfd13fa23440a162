/** `[n]` markers in a reply → citations; invalid numbers stripped. */
import assert from 'node:assert/strict';
import { citationsFor, stripInvalidCitations } from '../../../src/generation/citations';
import type { PromptEvidence } from '../../../src/generation/generator';

const EVIDENCE: PromptEvidence[] = [
	{
		n: 1,
		tier: 'workspace',
		source: 'src/retry.ts:1-10 (retry)',
		path: 'src/retry.ts',
		startLine: 1,
		endLine: 10,
		text: '…',
	},
	{
		n: 2,
		tier: 'research',
		source: 'research memory, 2026-11-30',
		path: null,
		startLine: null,
		endLine: null,
		text: '…',
	},
	{ n: 3, tier: 'workspace', source: 'src/config.ts:4-9', path: 'src/config.ts', startLine: 4, endLine: 9, text: '…' },
];
const toUri = (p: string) => `file:///ws/${p}`;

describe('generation: citations', () => {
	it('maps used markers to evidence, once each, in order of first use', () => {
		const cites = citationsFor('Config is parsed early [3]. It retries [1][3], see also [2, 1].', EVIDENCE, toUri);
		assert.deepEqual(cites, [
			{ n: 3, label: 'src/config.ts:4-9', uri: 'file:///ws/src/config.ts', startLine: 4, endLine: 9 },
			{ n: 1, label: 'src/retry.ts:1-10 (retry)', uri: 'file:///ws/src/retry.ts', startLine: 1, endLine: 10 },
			{ n: 2, label: 'research memory, 2026-11-30', uri: null, startLine: null, endLine: null },
		]);
	});

	it('ignores numbers with no evidence, index expressions and markers inside code', () => {
		const text = 'Use `arr[1]` or items[2]; see [7].\n\n```ts\nconst x = ys[3];\n// [3]\n```\nDone [1].';
		assert.deepEqual(
			citationsFor(text, EVIDENCE, toUri).map((c) => c.n),
			[1],
		);
	});

	it('a URI mapper that returns null (outside the workspace) gives an unlinked citation', () => {
		assert.equal(citationsFor('[1]', EVIDENCE, () => null)[0].uri, null);
	});

	it('strips citations of evidence that does not exist, keeping valid ones in a group', () => {
		const { text, removed } = stripInvalidCitations(
			'It retries [1] with backoff [4]. Parsed [3, 9]. Code `a[5]` stays.',
			EVIDENCE,
		);
		assert.equal(text, 'It retries [1] with backoff. Parsed [3]. Code `a[5]` stays.');
		assert.deepEqual(removed, [4, 9]);
		assert.deepEqual(stripInvalidCitations('All fine [2].', EVIDENCE), { text: 'All fine [2].', removed: [] });
		assert.deepEqual(stripInvalidCitations('No evidence at all [1].', []), {
			text: 'No evidence at all.',
			removed: [1],
		});
	});
});
