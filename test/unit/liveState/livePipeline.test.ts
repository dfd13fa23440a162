/**
 * Live state inside the real turn pipeline (real decision core, evidence-only generator) with a
 * fake live host; proposed actions wait for a click (ActionBook) and Restricted Mode runs nothing.
 */
import assert from 'node:assert/strict';
import { ActionBook, type ActionRunner } from '../../../src/chat/liveState/actionBook';
import type { RunnableAction } from '../../../src/chat/liveState/actionProposal';
import type { LiveStateHost } from '../../../src/chat/liveState/liveStatePorts';
import { runPipeline, type PipelineTurn } from '../../../src/chat/turnPipeline';
import type { TraceStep } from '../../../src/core/trace';
import { quietLogger as quiet } from '../../fixtures/hostDoubles';
import { pipelineTurn } from '../../fixtures/pipelineTurn';

const sink = { progress() {}, start() {}, delta() {} };

function turn(utterance: string, over: Partial<PipelineTurn> = {}): PipelineTurn {
	return pipelineTurn({ utterance, ...over });
}

const host: LiveStateHost = {
	sources: {
		diagnostics: {
			source: 'diagnostics',
			read: () =>
				Promise.resolve({
					status: 'ok',
					read: '1 error in 1 file',
					items: [
						{
							citation: 'Problems: src/billing.ts:2',
							path: 'src/billing.ts',
							startLine: 2,
							endLine: 2,
							text: "error ts 2322 at src/billing.ts:2:14: Type 'string' is not assignable to type 'number'.\n2 | export const total: number = 'ten';",
						},
					],
				}),
		},
		git: {
			source: 'git',
			read: () =>
				Promise.resolve({
					status: 'ok',
					read: 'branch main, 1 changed file',
					items: [
						{
							citation: 'git status',
							path: null,
							startLine: null,
							endLine: null,
							text: 'On branch main\nNot staged:\n  modified: src/config.ts',
						},
						{
							citation: 'git diff src/config.ts',
							path: 'src/config.ts',
							startLine: null,
							endLine: null,
							text: '-export const port = 80;\n+export const port = 8080;',
						},
					],
				}),
		},
	},
	scripts: () => Promise.resolve({ test: 'mocha', 'test:unit': 'mocha test/unit', build: 'node esbuild.mjs' }),
};

const notes = (steps: TraceStep[]) => steps.flatMap((s) => (s.kind === 'note' ? [`${s.stage}: ${s.message}`] : []));

describe('live state in the turn pipeline', () => {
	it('a question about current errors quotes the diagnostic with file:line, the trace shows the read', async () => {
		const out = await runPipeline({ log: quiet, live: host }, turn('which errors does the Problems view show?'), sink);
		assert.equal(out.kind, 'reply');
		if (out.kind !== 'reply') return;
		assert.equal(out.result.path, 'tool');
		assert.match(out.markdown, /\*\*Read from the editor just now\*\* \(1 item/);
		assert.ok(out.markdown.includes('[1] Problems: src/billing\\.ts:2'), 'the citation (Markdown-escaped)');
		assert.ok(out.markdown.includes("Type 'string' is not assignable to type 'number'."));
		const gate = out.trace.steps.find((s) => s.kind === 'gate' && s.gate === 'live_sources');
		assert.ok(gate && gate.kind === 'gate' && JSON.stringify(gate.value) === '["diagnostics"]');
		assert.ok(notes(out.trace.steps).some((n) => /^live: diagnostics: 1 error in 1 file · 1 item/.test(n)));
		assert.deepEqual(out.actions, []);
	});

	it('uncommitted changes: names the file and shows the diff lines', async () => {
		const out = await runPipeline({ log: quiet, live: host }, turn('what did I modify since my last commit?'), sink);
		assert.ok(out.kind === 'reply');
		assert.ok(out.markdown.includes('git diff src/config\\.ts'));
		assert.ok(out.markdown.includes('+export const port = 8080;'));
		assert.ok(out.markdown.includes('```diff'));
	});

	it('"run the unit tests" proposes the exact command and runs nothing until the click', async () => {
		const ran: RunnableAction[] = [];
		const runner: ActionRunner = { run: (r) => (ran.push(r), Promise.resolve({ status: 'ran', message: 'sent' })) };
		const out = await runPipeline({ log: quiet, live: host }, turn('run the unit tests'), sink);
		assert.ok(out.kind === 'reply');
		assert.deepEqual(
			out.actions?.map((a) => a.action),
			[{ id: 'run_tests-1', kind: 'terminal', label: 'Run in Terminal', detail: 'npm run test:unit', confirm: null }],
		);
		assert.match(out.markdown, /\*\*Proposed, not run:\*\* `npm run test:unit` — click \*\*Run in Terminal\*\*/);
		assert.ok(
			notes(out.trace.steps).some(
				(n) => n.startsWith('action: proposed terminal action "npm run test:unit"') && n.includes('waits for the user'),
			),
		);
		assert.equal(ran.length, 0, 'nothing ran with the reply');

		const book = new ActionBook();
		book.remember('t1', out.actions);
		const restricted = await book.run('t1', 'run_tests-1', runner, true);
		assert.equal(restricted.status, 'unavailable');
		assert.equal(ran.length, 0, 'Restricted Mode runs nothing');
		const clicked = await book.run('t1', 'run_tests-1', runner, false);
		assert.equal(clicked.status, 'ran');
		assert.deepEqual(ran, [{ kind: 'terminal', command: 'npm run test:unit' }]);
		assert.deepEqual(clicked.step, {
			kind: 'note',
			stage: 'action',
			level: 'info',
			message: 'the user clicked "npm run test:unit": ran — sent',
		});
		assert.equal(
			(await book.run('t1', 'run_tests-1', runner, false)).status,
			'unavailable',
			'a second click does not run it again',
		);
		assert.equal(
			(await book.run('t1', 'forged-1', runner, false)).status,
			'unavailable',
			'an id the host did not propose runs nothing',
		);
		assert.equal(ran.length, 1);
	});

	it('"undo that change" proposes reverting the changed file, with a confirmation naming it', async () => {
		const out = await runPipeline({ log: quiet, live: host }, turn('undo that change'), sink);
		assert.ok(out.kind === 'reply');
		assert.deepEqual(out.actions?.[0].action, {
			id: 'undo-1',
			kind: 'git',
			label: 'Revert',
			detail: 'revert the working-tree changes to src/config.ts (git restore)',
			confirm: 'Discard the uncommitted changes to src/config.ts? This cannot be undone.',
		});
	});

	it('Restricted Mode: no live state, no proposal', async () => {
		const out = await runPipeline(
			{ log: quiet, live: host },
			turn('run the unit tests', { context: { now: Date.now(), restricted: true } }),
			sink,
		);
		assert.ok(out.kind === 'reply');
		assert.deepEqual(out.actions, []);
		assert.ok(!out.markdown.includes('Proposed'));
	});

	it('headless (the CLI): the same turns say "no live state in the CLI" and still answer', async () => {
		for (const text of ['which errors does the Problems view show?', 'run the unit tests']) {
			const out = await runPipeline({ log: quiet }, turn(text), sink);
			assert.equal(out.kind, 'reply', text);
			if (out.kind !== 'reply') continue;
			assert.ok(
				notes(out.trace.steps).some((n) => n.includes('no live state in the CLI')),
				text,
			);
			assert.deepEqual(out.actions, []);
		}
	});
});
