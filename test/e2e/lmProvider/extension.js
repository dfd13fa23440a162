/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS test extension, loaded by VS Code as it is */
// Test-only extension for the Language Model API e2e (test/e2e/checks/55-lm-api.cjs). VS Code
// 1.100.3 (code-server 4.100.3) offers model providers only through the proposed `chatProvider`
// API: `vscode.lm.registerChatModelProvider(id, provider, metadata)`, enabled for this extension
// with code-server's `--enable-proposed-api gated-memory-test.gmem-e2e-lm-provider` (run.sh); the
// vendor must also be declared under `contributes.languageModels` (package.json), else the
// workbench drops the registration ("UNKNOWN vendor") and selectChatModels returns nothing.
// The model "E2E Echo" answers deterministically from the prompt it received: it cites each
// evidence block by its [n] and source, streams word by word, and by the question's words
// streams slowly ("slowly", for Stop) or fails ("provider-error", for the retry path). Every
// request is appended to $GMEM_E2E_LM_LOG as one JSON line (the messages it received, whether it
// was cancelled), so the e2e can check the prompt held the evidence as quoted data.
const fs = require('fs');
const vscode = require('vscode');

const log = (entry) => {
	if (process.env.GMEM_E2E_LM_LOG)
		fs.appendFileSync(process.env.GMEM_E2E_LM_LOG, JSON.stringify({ at: Date.now(), ...entry }) + '\n');
};

const textOf = (m) =>
	typeof m.content === 'string'
		? m.content
		: (m.content || []).map((p) => (typeof p.value === 'string' ? p.value : '')).join('');

/** The reply: one sentence per evidence block ("[n] cites source"), or a plain line without evidence. */
function answer(prompt) {
	const blocks = [...prompt.matchAll(/^\[(\d+)\] (.+)$/gm)].map((m) => ({ n: m[1], source: m[2].trim() }));
	if (!blocks.length) return 'E2E Echo received no evidence for this question.';
	return (
		`E2E Echo received ${blocks.length} evidence block${blocks.length === 1 ? '' : 's'}. ` +
		blocks.map((b) => `The evidence [${b.n}] comes from ${b.source}.`).join(' ') +
		' That is all it was given.'
	);
}

const sleep = (ms, token) =>
	new Promise((resolve) => {
		const t = setTimeout(resolve, ms);
		token.onCancellationRequested(() => (clearTimeout(t), resolve()));
	});

function activate(context) {
	if (typeof vscode.lm?.registerChatModelProvider !== 'function') {
		log({ event: 'no-api', version: vscode.version, lm: Object.keys(vscode.lm || {}) });
		return;
	}
	const provider = {
		async provideLanguageModelResponse(messages, options, extensionId, progress, token) {
			const received = messages.map((m) => ({ role: m.role, text: textOf(m) }));
			const last = received.filter((m) => m.role === vscode.LanguageModelChatMessageRole.User).at(-1)?.text ?? '';
			const question = /Question: ([\s\S]*)$/.exec(last)?.[1] ?? last;
			const entry = { event: 'request', extensionId, messages: received, cancelled: false };
			if (/provider-error/.test(question)) {
				log({ ...entry, failed: true });
				throw new Error('E2E Echo: simulated provider outage');
			}
			const slow = /slowly/.test(question);
			const words = (
				slow ? `${answer(last)} ${'And it goes on, one slow word at a time.'.repeat(6)}` : answer(last)
			).split(/(?<= )/);
			for (const w of words) {
				if (token.isCancellationRequested) break;
				progress.report({ index: 0, part: new vscode.LanguageModelTextPart(w) });
				await sleep(slow ? 250 : 15, token);
			}
			log({ ...entry, cancelled: token.isCancellationRequested });
		},
		async provideTokenCount(text) {
			const s = typeof text === 'string' ? text : textOf(text);
			return Math.ceil(s.length / 4);
		},
	};
	context.subscriptions.push(
		vscode.lm.registerChatModelProvider('gmem-e2e-echo', provider, {
			vendor: 'gmem-e2e',
			name: 'E2E Echo',
			family: 'echo',
			version: '1',
			maxInputTokens: 100000,
			maxOutputTokens: 4000,
			isUserSelectable: true,
			// The Chat view answers with the default model; this is the only one here.
			isDefault: true,
		}),
	);
	// VS Code 1.100 shows its Chat view only once a default participant is registered (Copilot's, in
	// a normal install; none exists in code-server). This one (proposed defaultChatParticipant) makes
	// the view available so the e2e can address @memory there; it only says it is not @memory.
	if (typeof vscode.chat?.createChatParticipant === 'function') {
		context.subscriptions.push(
			vscode.chat.createChatParticipant('gmemE2e.default', async (_request, _context, stream) => {
				stream.markdown('E2E default participant: address @memory to ask Gated Memory.');
				return {};
			}),
		);
	}
	log({ event: 'registered', version: vscode.version, chat: typeof vscode.chat?.createChatParticipant === 'function' });
}

module.exports = { activate, deactivate() {} };
