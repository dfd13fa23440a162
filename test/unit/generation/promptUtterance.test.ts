/**
 * The user's own message in the assembled prompt is bounded: whole up to UTTERANCE_BUDGET_CHARS,
 * beyond that its head and tail around a visible "[… N characters cut …]" marker, with the count
 * on the prompt (`utteranceCut`) and a trace note from the turn pipeline.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { runPipeline } from '../../../src/chat/turnPipeline';
import {
	assemblePrompt,
	boundUtterance,
	estimateTokens,
	UTTERANCE_BUDGET_CHARS,
} from '../../../src/generation/promptAssembly';
import { quietLogger as quiet } from '../../fixtures/hostDoubles';
import { pipelineTurn } from '../../fixtures/pipelineTurn';

const MB = 1024 * 1024;
/** A pasted stack trace: a first line, many frames, and the question at the very end. */
function pasted(size: number): string {
	const first = 'TypeError: Cannot read properties of undefined (reading "port") FIRSTLINEMARK\n';
	const last = '\nwhy does loadConfig crash here? LASTLINEMARK';
	const frames = Array.from(
		{ length: Math.ceil(size / 30) },
		(_, i) => `    at handler${i} (src/server/routes.ts:${i}:13)`,
	).join('\n');
	return first + frames.slice(0, size - first.length - last.length) + last;
}
const lastUser = (p: ReturnType<typeof assemblePrompt>) => p.messages.at(-1)!.content;
const base = {
	history: [],
	instructions: [],
	budgetTokens: DEFAULT_THRESHOLDS.prompt_evidence_budget_tokens,
	route: 'rag',
};
const chunk = {
	source: 'workspace' as const,
	path: 'src/config.ts',
	startLine: 1,
	endLine: 3,
	symbol: 'loadConfig',
	text: 'export function loadConfig() {\n\treturn read();\n}',
};

describe('prompt assembly: the user message is bounded', () => {
	it('a 1 MB message keeps its first and last lines around a marker that counts what was cut', () => {
		const utterance = pasted(MB);
		const p = assemblePrompt({ ...base, utterance, evidence: [] });
		const sent = lastUser(p);
		const m = /\n\[… ([\d,]+) characters cut …\]\n/.exec(sent);
		assert.ok(m, sent.slice(9_000, 10_000));
		const cut = Number(m[1].replace(/,/g, ''));
		assert.equal(p.utteranceCut, cut);
		assert.equal(
			sent.length - m[0].length,
			utterance.length - cut,
			'the marker replaces exactly the characters it counts',
		);
		assert.ok(sent.length - m[0].length <= UTTERANCE_BUDGET_CHARS, `${sent.length} characters sent`);
		assert.ok(sent.startsWith('TypeError: Cannot read properties') && sent.includes('FIRSTLINEMARK'));
		assert.ok(sent.endsWith('why does loadConfig crash here? LASTLINEMARK'), 'the question at the end survives');
		assert.ok(estimateTokens(sent) <= UTTERANCE_BUDGET_CHARS / 4 + 20);
	});

	it('with evidence: the blocks are kept, only the question part is cut; a message within the budget is sent whole', () => {
		const cutOne = assemblePrompt({ ...base, utterance: pasted(40_000), evidence: [chunk] });
		assert.equal(cutOne.evidence.length, 1);
		assert.match(lastUser(cutOne), /Question: TypeError[\s\S]*\[… [\d,]+ characters cut …\][\s\S]*LASTLINEMARK$/);
		const whole = pasted(UTTERANCE_BUDGET_CHARS);
		const p = assemblePrompt({ ...base, utterance: whole, evidence: [] });
		assert.equal(lastUser(p), whole);
		assert.equal(p.utteranceCut, undefined);
	});

	it('never splits a surrogate pair at either cut', () => {
		const emoji = '😀'.repeat(5_000); // 10,000 UTF-16 units, no line breaks
		const { text, cut } = boundUtterance(emoji, 1_001);
		assert.ok(cut > 0);
		assert.doesNotMatch(
			text,
			/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
			'no lone surrogate',
		);
	});

	it('the turn pipeline notes the cut in the trace (an 18,000-character message: accepted by the panel, cut in the prompt)', async () => {
		const utterance = pasted(18_000);
		const out = await runPipeline(
			{ log: quiet, retrieve: () => Promise.resolve({ status: 'evidence', chunks: [chunk], notes: [], steps: [] }) },
			pipelineTurn({ utterance, retrieval: 'force' }),
			{ progress() {}, start() {}, delta() {} },
		);
		assert.equal(out.kind, 'reply', JSON.stringify(out).slice(0, 300));
		const said = (out.trace?.steps ?? []).flatMap((s) =>
			s.kind === 'note' && s.stage === 'prompt' ? [s.message] : [],
		);
		assert.ok(
			said.some((n) =>
				/your message is 18,000 characters: its middle \([\d,]+ characters\) was left out of the prompt/.test(n),
			),
			said.join(' | '),
		);
	});
});
