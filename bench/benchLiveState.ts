/**
 * Benchmark of live-state gathering per turn (issue 14; not a test). Builds a 2,000-file
 * TypeScript repository in a temp folder (a real git repository: one commit, then 50 files
 * modified), then times, per turn, the product's host-agnostic path — planLiveTurn →
 * gatherLiveTurn (budgets, caps, redaction, trace notes) → assemblePrompt with the live evidence —
 * with these sources (`git` is the only one that leaves the process):
 *   diagnostics  6,000 diagnostics over the 2,000 files (what getDiagnostics() would hand over),
 *                sorted active file first and capped as the VS Code source does
 *   git          the real git binary: `git status --porcelain`, `git diff` and `git diff --cached`,
 *                split per file (what the git source asks the vscode.git API for, which runs git)
 *   editor       a 40-line selection;  terminal  a last command with 4,000 characters of output
 * The language-server source cannot run outside the editor: the e2e reads its real time from the
 * trace (test/e2e/checks/60-live-state.cjs → test/e2e/out/live-state-timings.json).
 *   npm run build && node dist/bench/benchLiveState.js [--turns 200]
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatherLiveTurn, planLiveTurn } from '../src/chat/liveState/liveTurn';
import { splitUnifiedDiff } from '../src/chat/liveState/splitDiff';
import type { LiveItem, LiveRead, LiveStateHost } from '../src/chat/liveState/liveStatePorts';
import { decideTurn } from '../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { assemblePrompt } from '../src/generation/promptAssembly';

const run = promisify(execFile);
const FILES = 2000;
const MODIFIED = 50;
const DIAGNOSTICS_PER_FILE = 3;
const args = process.argv.slice(2);
const TURNS = Number(args[args.indexOf('--turns') + 1]) || 200;

function buildRepo(): string {
	const root = mkdtempSync(join(tmpdir(), 'gmem-bench-live-'));
	for (let i = 0; i < FILES; i++) {
		const dir = join(root, 'src', `mod${Math.floor(i / 50)}`);
		if (i % 50 === 0) mkdirSync(dir, { recursive: true });
		const body = Array.from(
			{ length: 40 },
			(_, l) => `export function f${i}_${l}(x: number): number {\n\treturn x + ${l};\n}`,
		).join('\n');
		writeFileSync(join(dir, `file${i}.ts`), body + '\n');
	}
	const git = (...a: string[]) => execFileSync('git', a, { cwd: root, stdio: 'pipe' });
	git('init', '-q');
	git('add', '-A');
	git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'bench');
	for (let i = 0; i < MODIFIED; i++) {
		const file = join(root, 'src', `mod${Math.floor((i * 40) / 50)}`, `file${i * 40}.ts`);
		writeFileSync(file, `// changed for the benchmark\nexport const apiKey = "sk-proj-${'a'.repeat(30)}${i}";\n`, {
			flag: 'a',
		});
	}
	return root;
}

function diagnosticsItems(): { path: string; line: number; severity: number; message: string }[] {
	const out = [];
	for (let i = 0; i < FILES; i++)
		for (let d = 0; d < DIAGNOSTICS_PER_FILE; d++)
			out.push({
				path: `src/mod${Math.floor(i / 50)}/file${i}.ts`,
				line: d * 3 + 2,
				severity: d % 2,
				message: `Type 'string' is not assignable to type 'number'. (${i}.${d})`,
			});
	return out;
}

function host(root: string): LiveStateHost {
	const diagnostics = diagnosticsItems();
	const active = 'src/mod7/file350.ts';
	const selection = Array.from({ length: 40 }, (_, l) => `\treturn x + ${l}; // line ${l}`).join('\n');
	// A test run's failure log (~4,000 characters, the tail the terminal source keeps).
	const output = Array.from(
		{ length: 60 },
		(_, i) =>
			`  ${i + 1}) billing totals: AssertionError: expected ${i} to equal ${i + 1}\n      at Context.<anonymous> (test/billing.test.ts:${i + 3}:12)`,
	)
		.join('\n')
		.slice(-4000);
	return {
		sources: {
			diagnostics: {
				source: 'diagnostics',
				read: (req): Promise<LiveRead> => {
					// What the VS Code source does after getDiagnostics(): sort (active first, severity, path), cap, format.
					const rows = [...diagnostics].sort(
						(a, b) =>
							Number(b.path === active) - Number(a.path === active) ||
							a.severity - b.severity ||
							a.path.localeCompare(b.path) ||
							a.line - b.line,
					);
					const items: LiveItem[] = rows.slice(0, req.maxItems).map((d) => ({
						citation: `Problems: ${d.path}:${d.line}`,
						path: d.path,
						startLine: d.line,
						endLine: d.line,
						text: `${d.severity ? 'warning' : 'error'} ts 2322 at ${d.path}:${d.line}:5: ${d.message}`,
					}));
					return Promise.resolve({
						status: 'ok',
						items,
						total: rows.length,
						read: `${rows.length} diagnostics in ${FILES} files`,
					});
				},
			},
			git: {
				source: 'git',
				read: async (req, signal): Promise<LiveRead> => {
					// What the git source asks the git API for: status, then the whole tree's diff once (unstaged + staged), split per file.
					const [status, unstaged, staged] = await Promise.all([
						run('git', ['status', '--porcelain'], { cwd: root, signal }).then((r) => r.stdout),
						run('git', ['diff'], { cwd: root, signal, maxBuffer: 1 << 26 }).then((r) => r.stdout),
						run('git', ['diff', '--cached'], { cwd: root, signal, maxBuffer: 1 << 26 }).then((r) => r.stdout),
					]);
					const changed = status
						.split('\n')
						.filter(Boolean)
						.map((l) => l.slice(3));
					const items: LiveItem[] = [
						{ citation: 'git status', path: null, startLine: null, endLine: null, text: status },
					];
					for (const d of [...splitUnifiedDiff(unstaged), ...splitUnifiedDiff(staged)].slice(0, req.maxItems - 2))
						items.push({ citation: `git diff ${d.path}`, path: d.path, startLine: null, endLine: null, text: d.text });
					return {
						status: 'ok',
						items,
						total: 1 + changed.length,
						read: `${changed.length} changed files`,
						via: 'git CLI',
					};
				},
			},
			editor: {
				source: 'editor',
				read: () =>
					Promise.resolve({
						status: 'ok',
						read: 'a 40-line selection',
						items: [
							{ citation: `Selection: ${active}:10-49`, path: active, startLine: 10, endLine: 49, text: selection },
						],
					}),
			},
			terminal: {
				source: 'terminal',
				read: () =>
					Promise.resolve({
						status: 'ok',
						read: 'last command',
						items: [
							{
								citation: 'Terminal: npm test (exit code 1)',
								path: null,
								startLine: null,
								endLine: null,
								text: `$ npm test\n${output}`,
							},
						],
					}),
			},
		},
	};
}

function pct(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(label: string, live: LiveStateHost, utterance: string): Promise<void> {
	const result = decideTurn({ history: [], utterance, context: {} });
	const times: number[] = [];
	let items = 0;
	for (let i = 0; i < TURNS + 10; i++) {
		const t0 = performance.now();
		const planned = planLiveTurn(utterance, result, false);
		const turn = await gatherLiveTurn(live, planned, {
			utterance,
			thresholds: DEFAULT_THRESHOLDS,
			signal: new AbortController().signal,
			restricted: false,
		});
		assemblePrompt({
			utterance,
			history: [],
			evidence: turn.evidence,
			instructions: [],
			budgetTokens: DEFAULT_THRESHOLDS.prompt_evidence_budget_tokens,
			route: result.route,
		});
		const ms = performance.now() - t0;
		items = turn.evidence.length;
		if (i >= 10) times.push(ms); // the first 10 warm the JIT and git's caches
	}
	times.sort((a, b) => a - b);
	const f = (n: number) => n.toFixed(2);
	console.log(
		`${label.padEnd(44)} sources ${planLiveTurn(utterance, result, false).plan.sources.join('+').padEnd(34)} items ${String(items).padStart(3)}  p50 ${f(pct(times, 50))} ms  p95 ${f(pct(times, 95))} ms  max ${f(times.at(-1)!)} ms`,
	);
}

async function main(): Promise<void> {
	const t0 = performance.now();
	const root = buildRepo();
	console.log(
		`repository: ${FILES} files, ${MODIFIED} modified, ${FILES * DIAGNOSTICS_PER_FILE} diagnostics; built in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${TURNS} turns per row; ${availableParallelism()} cores, load ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}; node ${process.version}`,
	);
	try {
		const all = host(root);
		const everything =
			'which errors does the Problems view show, what did I change since my last commit, what does the highlighted code do and why did the last command in the terminal fail?';
		await measure('all sources (real git)', all, everything);
		await measure('diagnostics only', all, 'which errors does the Problems view show?');
		await measure('git only (real git)', all, 'what did I modify since my last commit?');
		const noGit: LiveStateHost = { sources: { ...all.sources, git: undefined } };
		await measure('all but git (host-agnostic assembly only)', noGit, everything);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

void main();
