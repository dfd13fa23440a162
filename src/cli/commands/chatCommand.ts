/**
 * `gmem chat [FILE.jsonl]`: the editor's turn pipeline, headless (src/cli/chatHost.ts). A
 * conversation comes as JSON Lines — `{"role": "user", "content"}` turns, `{"index": DIR}` (index
 * a folder, then work in it), `{"workspace": DIR}`, `{"new_conversation": true}` — or, when stdin
 * is a terminal and no FILE is given, from an interactive prompt. Per user turn: the reply, its
 * citations and the full decision trace (`--json`: one object per turn, CONTRACT.md). A bad line
 * is that line's error object; the conversation goes on.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DecisionTrace } from '../../core/trace';
import { EvidenceOnlyGenerator } from '../../generation/evidenceOnlyGenerator';
import type { Generator } from '../../generation/generator';
import { OpenAiGenerator } from '../../generation/openaiGenerator';
import type { Logger } from '../../chat/logger';
import { parseCommandArgs } from '../args';
import { ChatHost, chatStoreLocation, type ChatTurnOutput } from '../chatHost';
import { EXIT_OK, StoreUnavailableError, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { readLines } from '../jsonl';
import { gateOutput, loadConfig } from './gateCommand';
import { STORE_OPTIONS } from '../storeCli';

const USAGE = `usage: gmem chat [FILE.jsonl] [--workspace DIR] [--index DIR] [--generator evidence|openai]
                 [--openai-base-url URL] [--openai-model NAME] [--embedder builtin|minilm|none]
                 [--reranker builtin|minilm|none] [--config FILE] [--db PATH|URL] [--scope NAME] [--json]

Runs the editor's chat turn headless: decide → search the decided tiers (workspace, research
memory, profile) → generate → cite → persist (research Q&A, corrections superseding, profile, the
conversation tier), with the extension's defaults (built-in embedder and reranker). No live editor
state: every trace says so.
Input (FILE, or stdin; an interactive prompt when stdin is a terminal): JSON Lines
  {"role": "user", "content": "..."}    a user turn ("at": epoch ms, optional; else a minute after the last)
  {"role": "assistant", "content"}     a recorded reply: stands for the generated one in the history
  {"index": "DIR"}                      index DIR (incremental), then search and write its workspace
  {"workspace": "DIR"}                  work in DIR's workspace without indexing
  {"new_conversation": true}            start a new conversation (memory stays)
  --workspace DIR     the workspace searched and written (default: the current directory)
  --index DIR         index DIR first and work in it
  --generator X       evidence (default: quotes the evidence with citations, no model) or openai
  --openai-base-url   an OpenAI-compatible endpoint (or $GMEM_OPENAI_BASE_URL); the key comes from
                      $GMEM_OPENAI_API_KEY (else $OPENAI_API_KEY); --openai-model (or $GMEM_OPENAI_MODEL)
Output (--json, one line per user turn): {"turn", "reply", "citations", "status", "decision", "trace"}
(a bad line: {"line", "error"}). Recorded assistant rows replay a conversation as it was: the next turns
are decided on them, not on the generated replies.`;

const OPTIONS = {
	...STORE_OPTIONS,
	workspace: { type: 'string' },
	index: { type: 'string' },
	generator: { type: 'string', default: 'evidence' },
	'openai-base-url': { type: 'string' },
	'openai-model': { type: 'string' },
	embedder: { type: 'string' },
	reranker: { type: 'string' },
	config: { type: 'string' },
} as const;

type ModelChoice = 'builtin' | 'minilm' | 'none';
const MODEL_CHOICES: readonly ModelChoice[] = ['builtin', 'minilm', 'none'];

function modelChoice(value: string | undefined, flag: string): ModelChoice | undefined {
	if (value === undefined) return undefined;
	if (!(MODEL_CHOICES as readonly string[]).includes(value))
		throw new UsageError(`${flag} must be one of ${MODEL_CHOICES.join(', ')} (got "${value}")`);
	return value as ModelChoice;
}

/** The generator the flags name; `openai` without a base URL is a usage error, not a silent fallback. */
export function cliGenerator(
	values: { generator?: string; 'openai-base-url'?: string; 'openai-model'?: string },
	env: NodeJS.ProcessEnv,
): Generator {
	const kind = values.generator ?? 'evidence';
	if (kind === 'evidence') return new EvidenceOnlyGenerator();
	if (kind !== 'openai') throw new UsageError(`--generator must be evidence or openai (got "${kind}")`);
	const baseUrl = (values['openai-base-url'] ?? env.GMEM_OPENAI_BASE_URL ?? '').trim();
	if (!baseUrl) throw new UsageError('--generator openai needs --openai-base-url URL (or $GMEM_OPENAI_BASE_URL)');
	const model = (values['openai-model'] ?? env.GMEM_OPENAI_MODEL ?? '').trim();
	const apiKey = env.GMEM_OPENAI_API_KEY || env.OPENAI_API_KEY || null;
	return new OpenAiGenerator({ baseUrl, model, apiKey });
}

/** Logs to stderr: warnings and errors only (info would drown the replies). */
function stderrLogger(io: CliIo): Logger {
	const say = (level: string) => (m: string | Error) =>
		io.stderr(`gmem chat: ${level}: ${m instanceof Error ? m.message : m}\n`);
	return { trace() {}, debug() {}, info() {}, warn: say('warn'), error: say('error') };
}

/** One input row, parsed; throws with the message for the line's error object. */
export type ChatRow =
	| { kind: 'user'; content: string; at?: number }
	| { kind: 'assistant'; content: string }
	| { kind: 'index'; dir: string }
	| { kind: 'workspace'; dir: string }
	| { kind: 'new' };

export function parseChatRow(obj: unknown): ChatRow {
	if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('a line must be a JSON object');
	const o = obj as Record<string, unknown>;
	if (o.index !== undefined || o.workspace !== undefined) {
		const key = o.index !== undefined ? 'index' : 'workspace';
		const dir = o[key];
		if (typeof dir !== 'string' || !dir.trim()) throw new Error(`"${key}" must be a folder path`);
		return key === 'index' ? { kind: 'index', dir } : { kind: 'workspace', dir };
	}
	if (o.new_conversation === true) return { kind: 'new' };
	if (o.role !== 'user' && o.role !== 'assistant')
		throw new Error(
			'expected {"role": "user", "content"}, {"index": DIR}, {"workspace": DIR} or {"new_conversation": true}',
		);
	if (typeof o.content !== 'string' || !o.content.trim()) throw new Error('"content" must be a non-empty string');
	if (o.at !== undefined && (typeof o.at !== 'number' || !Number.isFinite(o.at)))
		throw new Error('"at" must be a time in epoch ms');
	if (o.role === 'assistant') return { kind: 'assistant', content: o.content };
	return typeof o.at === 'number'
		? { kind: 'user', content: o.content, at: o.at }
		: { kind: 'user', content: o.content };
}

/** The `--json` object of a turn (CONTRACT.md): the decision as `gmem gate` prints it, then the final trace. */
export function turnJson(t: ChatTurnOutput): Record<string, unknown> {
	return {
		turn: t.turn,
		reply: t.reply,
		citations: t.citations.map((c) => ({ n: c.n, label: c.label, start_line: c.startLine, end_line: c.endLine })),
		status: t.status,
		decision: t.decision ? gateOutput(t.decision) : null,
		trace: t.trace,
		...(t.error ? { error: t.error } : {}),
	};
}

/** The human form: the reply, its sources and the trace's headline and steps. */
export function turnText(t: ChatTurnOutput): string {
	const lines = [t.error ? `error: ${t.error}` : t.reply, ''];
	if (t.citations.length) lines.push('sources:', ...t.citations.map((c) => `  [${c.n}] ${c.label}`), '');
	if (t.trace) lines.push(...traceLines(t.trace), '');
	return lines.join('\n') + '\n';
}

function traceLines(trace: DecisionTrace): string[] {
	const d = trace.decision;
	const head = `decision: ${d.route} · trigger ${d.trigger} · path ${d.path} · ${d.retrieve ? `search ${d.tiers.join('+')}` : 'no lookup'}${d.write.length ? ` · write ${d.write.join('+')}` : ''}`;
	const steps = trace.steps.map((s) => `  - ${s.kind}${s.kind === 'note' ? ` (${s.stage}): ${s.message}` : ''}`);
	return [head, ...steps];
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length > 1) throw new UsageError('expected at most one FILE.jsonl');
	const file = positionals[0] && positionals[0] !== '-' ? resolve(io.cwd, positionals[0]) : undefined;
	if (file && !existsSync(file)) throw new UsageError(`${positionals[0]}: no such file`);
	const thresholds = loadConfig(values.config, io.cwd);
	const generator = cliGenerator(values, io.env);
	const embedder = modelChoice(values.embedder, '--embedder');
	const reranker = modelChoice(values.reranker, '--reranker');
	const models = { ...(embedder ? { embedder } : {}), ...(reranker ? { reranker } : {}) };
	const host = new ChatHost({
		location: chatStoreLocation(values.db, values.scope, io.env, io.cwd),
		workspace: resolve(io.cwd, values.index ?? values.workspace ?? '.'),
		thresholds,
		generator,
		log: stderrLogger(io),
		models: { ...models, ...(io.env.GMEM_MODEL_DIR ? { localPath: io.env.GMEM_MODEL_DIR } : {}) },
		clock: !file && io.stdinIsTTY === true ? 'live' : 'replay',
	});
	const interactive = !file && io.stdinIsTTY === true;
	const print = (t: ChatTurnOutput) => io.stdout(values.json ? JSON.stringify(turnJson(t)) + '\n' : turnText(t));
	try {
		// The store opens before the first turn: a store that cannot be opened is exit 2, not N error turns.
		await host.memory.openStore().catch((e: unknown) => {
			throw new StoreUnavailableError(e instanceof Error ? e.message : String(e));
		});
		if (values.index) await indexInto(host, resolve(io.cwd, values.index), io, values.json);
		if (interactive)
			io.stderr(
				`gmem chat: workspace ${host.workspace} — type a message, /new for a new conversation, Ctrl-D to end\n> `,
			);
		for await (const { line, text } of readLines(file, io)) {
			try {
				const row = interactive ? interactiveRow(text) : parseChatRow(JSON.parse(text));
				if (row.kind === 'user') print(await host.say(row.content, row.at));
				else if (row.kind === 'index') await indexInto(host, resolve(io.cwd, row.dir), io, values.json);
				else if (row.kind === 'workspace') await host.useWorkspace(resolve(io.cwd, row.dir));
				else if (row.kind === 'new') await host.newConversation();
				else if (!host.recordReply(row.content))
					throw new Error('a recorded assistant reply needs a user turn before it');
			} catch (e) {
				const error = e instanceof Error ? e.message : String(e);
				if (values.json) io.stdout(JSON.stringify({ line, error }) + '\n');
				else io.stderr(`gmem chat: line ${line}: ${error}\n`);
			}
			if (interactive) io.stderr('> ');
		}
	} finally {
		await host.dispose();
	}
	return EXIT_OK;
}

/** A terminal line: a message, or `/new`. */
function interactiveRow(text: string): ChatRow {
	const t = text.trim();
	if (t === '/new') return { kind: 'new' };
	return { kind: 'user', content: t };
}

async function indexInto(host: ChatHost, dir: string, io: CliIo, json: boolean): Promise<void> {
	if (!existsSync(dir)) throw new UsageError(`index ${dir}: no such folder`);
	const r = await host.index(dir);
	const said = `indexed ${r.root}: ${r.files_indexed} files (${r.chunks} chunks), ${r.files_unchanged} unchanged, ${r.files_removed} removed`;
	// Progress is stderr; --json stdout stays one object per user turn.
	io.stderr(`gmem chat: ${said}\n`);
	if (!json) io.stdout(`${said}\n\n`);
}

export const chatCommand: CliCommand = {
	name: 'chat',
	summary: "Chat headless through the editor's turn pipeline (JSON Lines or a prompt)",
	usage: USAGE,
	run,
};
