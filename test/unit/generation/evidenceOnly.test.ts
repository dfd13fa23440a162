/** Evidence-only mode: the selected evidence quoted with [n] citations, streamed; honest when empty. */
import assert from 'node:assert/strict';
import { EvidenceOnlyGenerator, languageFor } from '../../../src/generation/evidenceOnlyGenerator';
import type { AssembledPrompt, PromptEvidence } from '../../../src/generation/generator';
import { citationsFor } from '../../../src/generation/citations';

const RETRY = 'export async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {\n\treturn fn();\n}\n';

function prompt(evidence: PromptEvidence[]): AssembledPrompt {
	return { messages: [], evidence, tokens: 0, dropped: [] };
}

async function run(evidence: PromptEvidence[], signal = new AbortController().signal) {
	const deltas: string[] = [];
	const result = await new EvidenceOnlyGenerator().generate({
		prompt: prompt(evidence),
		signal,
		onDelta: (d) => deltas.push(d),
	});
	return { result, deltas };
}

describe('generation: evidence-only generator', () => {
	it('quotes each chunk under its [n] path:lines citation in a fenced block with the language', async () => {
		const { result, deltas } = await run([
			{
				n: 1,
				tier: 'workspace',
				source: 'src/retry.ts:1-10 (retry)',
				path: 'src/retry.ts',
				startLine: 1,
				endLine: 10,
				text: RETRY,
			},
			{
				n: 2,
				tier: 'research',
				source: 'research memory, 2026-11-30',
				path: null,
				startLine: null,
				endLine: null,
				text: 'We retry three times.',
			},
		]);
		assert.equal(result.finish, 'stop');
		assert.equal(result.model, 'evidence-only');
		assert.equal(deltas.join(''), result.text);
		assert.ok(deltas.length >= 2, 'streamed in pieces');
		assert.match(result.text, /no model wrote this/);
		assert.ok(result.text.includes('[1] src/retry\\.ts:1\\-10 \\(retry\\)\n\n```ts\nexport async function retry<T>'));
		assert.ok(result.text.includes('[2] research memory, 2026\\-11\\-30\n\n```\nWe retry three times.\n```'));
		assert.deepEqual(
			citationsFor(
				result.text,
				[{ n: 1, tier: 'workspace', source: 's', path: 'src/retry.ts', startLine: 1, endLine: 10, text: '' }],
				() => null,
			).map((c) => c.n),
			[1],
		);
	});

	it('uses a fence longer than any backtick run in the chunk', async () => {
		const text = 'const s = `a`;\n```\n<img src=x onerror=alert(1)>\n````';
		const { result } = await run([
			{ n: 1, tier: 'workspace', source: 'x.md:1-4', path: 'x.md', startLine: 1, endLine: 4, text },
		]);
		assert.ok(result.text.endsWith('\n`````markdown\n' + text + '\n`````'));
	});

	it('says plainly when nothing matched', async () => {
		const { result } = await run([]);
		assert.match(result.text, /Nothing in the indexed workspace matched/);
		assert.equal(result.finish, 'stop');
	});

	it('stops when cancelled', async () => {
		const ac = new AbortController();
		ac.abort();
		const { result, deltas } = await run(
			[{ n: 1, tier: 'workspace', source: 'a', path: 'a.py', startLine: 1, endLine: 1, text: 'x' }],
			ac.signal,
		);
		assert.equal(result.finish, 'cancelled');
		assert.equal(deltas.length, 0);
	});

	it('picks the fence language from the extension', () => {
		assert.deepEqual(['a.ts', 'b.PY', 'Makefile', null, 'c.rs', 'd.unknown'].map(languageFor), [
			'ts',
			'python',
			'',
			'',
			'rust',
			'',
		]);
	});
});
