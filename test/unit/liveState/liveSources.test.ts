/** The live_sources rules (src/core/liveState/liveSources.ts) on the turns, with hand-written expectations. */
import assert from 'node:assert/strict';
import { commandRisk } from '../../../src/core/liveState/actionRisk';
import { proposeActionIntent } from '../../../src/core/liveState/actionIntents';
import { planLiveSources } from '../../../src/core/liveState/liveSources';
import type { AnswerPath, Tier } from '../../../src/core/types';

const plan = (text: string, path: AnswerPath = 'tool', tiers: Tier[] = [], restricted = false) =>
	planLiveSources(text, { path, tiers, restricted });

describe('live state: which sources a turn needs', () => {
	const cases: [string, AnswerPath, string[]][] = [
		['which errors does the Problems view show?', 'tool', ['diagnostics']],
		['what did I modify since my last commit?', 'tool', ['git']],
		['what are my uncommitted changes?', 'tool', ['git']],
		['what does this highlighted code do?', 'tool', ['editor']],
		['what did the last command in the terminal fail with?', 'tool', ['terminal']],
		['where is parseConfig defined?', 'rag', ['symbols']],
		['who calls parseConfig?', 'tool', ['symbols']],
		// Strong rules apply on other paths too; weak ones only on `tool`.
		['what are the current errors?', 'direct', ['diagnostics']],
		['what changed in the release?', 'direct', []],
		['how does parseConfig handle errors?', 'rag', []],
		['hello', 'direct', []],
	];
	for (const [text, path, sources] of cases) {
		it(`${path}: "${text}" → ${sources.join(', ') || 'nothing'}`, () => {
			assert.deepEqual(plan(text, path).sources, sources);
		});
	}

	it('a refusal reads nothing, even when the words name live state', () => {
		const p = plan('show me the git diff of .env with the keys', 'refuse');
		assert.deepEqual(p.sources, []);
		assert.equal(p.action, null);
	});

	it('Restricted Mode reads nothing and proposes nothing, and the gate step says so', () => {
		const p = plan('run the unit tests and show the Problems view', 'tool', [], true);
		assert.deepEqual(p.sources, []);
		assert.equal(p.action, null);
		assert.match(p.step.effect, /Restricted Mode/);
	});

	it('a symbol question names the symbol and searches the index beside the language server', () => {
		const p = plan('where is `parseConfig` defined?', 'rag', ['workspace']);
		assert.deepEqual(p.symbol, { name: 'parseConfig', kind: 'definition' });
		assert.deepEqual(p.extraTiers, []);
		const tool = plan('who calls loadSettings?', 'tool');
		assert.deepEqual(tool.symbol, { name: 'loadSettings', kind: 'references' });
		assert.deepEqual(tool.extraTiers, ['workspace']);
	});

	it('"this function" with the editor asks for the enclosing symbol', () => {
		assert.equal(plan('what does this function do?').enclosingSymbol, true);
		assert.equal(plan('what does this highlighted code do?').enclosingSymbol, false);
	});

	it('release notes "in the format I like" read git and also need the profile tier', () => {
		const p = plan('draft release notes from this branch in the format I like');
		assert.deepEqual(p.sources, ['git']);
		assert.deepEqual(p.extraTiers, ['profile']);
		assert.deepEqual(
			plan('draft release notes from this branch in the format I like', 'tool', ['profile']).extraTiers,
			[],
		);
	});

	it('a named file narrows git', () => {
		assert.equal(plan('show the diff of src/config.ts').file, 'src/config.ts');
	});

	it('the gate step lists the rules that fired', () => {
		const p = plan('which errors does the Problems view show?');
		assert.equal(p.step.gate, 'live_sources');
		assert.equal(p.step.fired, true);
		assert.deepEqual(p.step.value, ['diagnostics']);
		assert.ok((p.step.inputs.rules as string[]).some((r) => r.startsWith('diagnostics:problems_view')));
	});
});

describe('live state: action requests', () => {
	const cases: [string, string | null, string | null][] = [
		['run the unit tests', 'run_tests', 'unit'],
		['please run the tests', 'run_tests', null],
		['Can you rerun the integration tests?', 'run_tests', 'integration'],
		['undo that change', 'undo', null],
		['commit this', 'commit', null],
		['fetch and rebuild', 'fetch_rebuild', null],
		['apply the fix', 'apply_fix', null],
		['stage my changes', 'stage', null],
		// Questions about tests are not requests to run them.
		['why do the tests fail?', null, null],
		['what does the commit message say?', null, null],
	];
	for (const [text, kind, suite] of cases) {
		it(`"${text}" → ${kind ?? 'no action'}`, () => {
			const a = proposeActionIntent(text);
			assert.equal(a?.kind ?? null, kind);
			if (a) assert.equal(a.suite, suite);
		});
	}

	it('a commit, an undo and a fix read the state they touch', () => {
		assert.deepEqual(plan('commit this').sources, ['git']);
		assert.deepEqual(plan('undo that change', 'clarify').sources, ['git']);
		assert.deepEqual(plan('apply the fix', 'rag').sources, ['diagnostics', 'editor']);
		assert.deepEqual(plan('run the tests').sources, []);
	});

	it('destructive and production-looking commands need a confirmation; ordinary ones do not', () => {
		assert.equal(commandRisk('npm test').confirm, false);
		assert.equal(commandRisk('git fetch && npm run build').confirm, false);
		assert.deepEqual(commandRisk('rm -rf dist').reasons, ['deletes files']);
		assert.ok(commandRisk('git reset --hard HEAD~1').confirm);
		assert.ok(commandRisk('git push --force origin main').confirm);
		assert.ok(commandRisk('npm run deploy -- --prod').reasons.includes('targets production'));
		assert.ok(commandRisk('kubectl delete pod api-0').confirm);
	});
});
