/** createGenerator: auto picks LM API → OpenAI-compatible → evidence-only; explicit choices are honoured. */
import assert from 'node:assert/strict';
import { createGenerator, type GeneratorConfig } from '../../../src/generation/createGenerator';
import { GenerationError } from '../../../src/generation/generator';
import { FakeLmPort } from './fakeLmPort';

function config(kind: GeneratorConfig['kind'], baseUrl = ''): GeneratorConfig {
	return { kind, openai: { baseUrl, model: 'llama3', apiKey: null } };
}

const REQUEST = () => ({
	prompt: { messages: [{ role: 'user' as const, content: 'q' }], evidence: [], tokens: 1, dropped: [] },
	signal: new AbortController().signal,
	onDelta: () => undefined,
});

describe('generation: createGenerator', () => {
	it('auto: the LM API when it offers a model', async () => {
		const g = await createGenerator(config('auto', 'http://127.0.0.1:11434/v1'), { lm: new FakeLmPort() });
		assert.equal(g.info.kind, 'lm');
		assert.equal(g.info.label, 'VS Code language model · GPT-4o');
	});

	it('auto: OpenAI-compatible when the LM API offers nothing (or fails) and a base URL is set', async () => {
		const empty = await createGenerator(config('auto', 'http://127.0.0.1:11434/v1'), { lm: new FakeLmPort([]) });
		assert.equal(empty.info.kind, 'openai');
		assert.equal(empty.info.label, 'OpenAI-compatible · llama3 @ 127.0.0.1:11434');
		const broken = new FakeLmPort();
		broken.selectModels = async () => {
			throw new Error('lm down');
		};
		assert.equal((await createGenerator(config('auto', 'http://h/v1'), { lm: broken })).info.kind, 'openai');
		assert.equal((await createGenerator(config('auto', 'http://h/v1'), {})).info.kind, 'openai');
	});

	it('auto: evidence-only when there is neither', async () => {
		assert.equal((await createGenerator(config('auto', '  '), { lm: new FakeLmPort([]) })).info.kind, 'evidence');
	});

	it('an explicit choice is honoured even when unusable; its first call says what is missing', async () => {
		const lm = await createGenerator(config('lm'), {});
		assert.equal(lm.info.kind, 'lm');
		await assert.rejects(
			lm.generate(REQUEST()),
			(e: unknown) => e instanceof GenerationError && e.code === 'model_not_found',
		);
		const openai = await createGenerator(config('openai'), { lm: new FakeLmPort() });
		assert.equal(openai.info.kind, 'openai');
		await assert.rejects(
			openai.generate(REQUEST()),
			(e: unknown) => e instanceof GenerationError && /No base URL is set/.test(e.message),
		);
		assert.equal(
			(await createGenerator(config('evidence', 'http://h/v1'), { lm: new FakeLmPort() })).info.kind,
			'evidence',
		);
	});
});
