/**
 * The reranker setting in the extension's model layer: `builtin` (the default, also in
 * package.json) is the shipped linear reranker, read from the built-in model folder; a folder
 * without its weights is a passthrough with the reason, never a throw; `none` is off.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MODEL_SETTINGS, ModelsRuntime, type ModelSettings } from '../../src/chat/modelsRuntime';
import { LINEAR_RERANKER_ID } from '../../src/models/linearReranker';
import { quietLogger } from '../fixtures/hostDoubles';

describe('models runtime: the reranker setting', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'gmem-rr-runtime-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));
	const runtime = (settings: ModelSettings, builtinDir?: string) =>
		new ModelsRuntime({
			log: quietLogger,
			cacheDir: join(dir, 'cache'),
			settings: () => settings,
			...(builtinDir ? { builtinDir } : {}),
		});

	it('defaults to "builtin" in the code and in package.json, which lists all three values', () => {
		assert.equal(DEFAULT_MODEL_SETTINGS.reranker, 'builtin');
		const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
			contributes: {
				configuration:
					| { properties: Record<string, { default: unknown; enum: string[] }> }[]
					| { properties: Record<string, { default: unknown; enum: string[] }> };
			};
		};
		const sections = Array.isArray(pkg.contributes.configuration)
			? pkg.contributes.configuration
			: [pkg.contributes.configuration];
		const setting = sections.map((s) => s.properties['gatedMemory.models.reranker']).find(Boolean)!;
		assert.equal(setting.default, 'builtin');
		assert.deepEqual(setting.enum, ['builtin', 'minilm', 'none']);
	});

	it('"builtin" is the linear reranker; without its weights file it passes through with the reason', async () => {
		const active = runtime({ ...DEFAULT_MODEL_SETTINGS }, dir).activeReranker();
		assert.equal(active.status, 'ready');
		if (active.status !== 'ready') return;
		assert.equal(active.id, LINEAR_RERANKER_ID);
		const r = await active.reranker.rerank('q', ['a'], undefined, {
			arms: [{ fts: null, vector: { rank: 1, score: 0.5 } }],
			embedderId: 'gmem-static-code-v1',
		});
		assert.equal(r.status, 'passthrough');
		assert.match(
			r.reason ?? '',
			new RegExp(
				`^${LINEAR_RERANKER_ID} unavailable: built-in reranker: cannot read ${join(dir, 'reranker.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
			),
		);
	});

	it('"none" turns reranking off with the reason', () => {
		assert.deepEqual(runtime({ ...DEFAULT_MODEL_SETTINGS, reranker: 'none' }).activeReranker(), {
			status: 'none',
			reason: 'reranker off (gatedMemory.models.reranker is "none")',
		});
	});
});
